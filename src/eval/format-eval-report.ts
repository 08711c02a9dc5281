/** The eval report as a plain-text table (what `neardup eval` prints without --json). */
import type { EvalReport } from './evaluate-pairs.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(3));

/** Text table: one row per k, the best k marked `*`, the configured k marked `<`. */
export function formatEvalReport(report: EvalReport): string {
  const out: string[] = [];
  const p = report.params;
  out.push(`pairs: ${report.pairs} (${report.duplicates} duplicate, ${report.distinct} distinct) over ${report.documents} documents`);
  if (report.unjudged > 0) out.push(`unjudged: ${report.unjudged} pairs with a side too short to fingerprint (counted as "not duplicate")`);
  out.push(`fingerprint: hash=${p.hash} shingle=${p.shingleSize} weighting=${p.weighting} normalizer=v${p.normalizerVersion}`);
  out.push('');
  out.push('   k  precision  recall      F1      tp      fp      fn      tn');
  for (const r of report.rows) {
    const mark = `${r.k === report.bestK ? ' *best' : ''}${r.k === report.configuredK ? ' <configured' : ''}`;
    out.push(`${String(r.k).padStart(4)}  ${num(r.precision).padStart(9)}  ${num(r.recall).padStart(6)}  ${r.f1.toFixed(3).padStart(6)}`
      + `  ${String(r.tp).padStart(6)}  ${String(r.fp).padStart(6)}  ${String(r.fn).padStart(6)}  ${String(r.tn).padStart(6)}${mark}`);
  }
  out.push('');
  const d = report.decisions;
  const v = report.verify;
  out.push(d.verify
    ? `decisions (exact, near at k=${report.configuredK}, similar: K=${v.maxDistance}, sketch ${v.sketchSize}, ${v.minSharedKeys} of ${v.candidateKeys} keys, J >= ${v.jaccard}, C >= ${v.containment} on >= ${v.minContainmentSamples} values):`
    : `decisions (exact, near at k=${report.configuredK}; verify off):`);
  out.push(`  precision ${num(d.precision)}  recall ${num(d.recall)}  F1 ${d.f1.toFixed(3)}  tp ${d.tp}  fp ${d.fp}  fn ${d.fn}  tn ${d.tn}  similar ${d.similar}`);
  if (report.byKind.length > 1 || report.byKind.some((k) => k.kind !== 'duplicate' && k.kind !== 'distinct')) {
    out.push('');
    const atConfigured = `right@k=${report.configuredK}`;
    const atBest = `right@k=${report.bestK}`;
    const decided = d.verify ? 'right@verify' : 'right@decided';
    const kindWidth = Math.max(4, ...report.byKind.map((k) => k.kind.length));
    out.push(`${'kind'.padEnd(kindWidth)}  label  pairs  ${atConfigured.padStart(11)}  ${atBest.padStart(11)}  ${decided.padStart(13)}  distance median (min–max)`);
    for (const k of report.byKind) {
      const share = (n: number, width = 11) => `${n}/${k.pairs}`.padStart(width);
      const spread = k.medianDistance === null ? '—' : `${k.medianDistance} (${k.minDistance}–${k.maxDistance})`;
      out.push(`${k.kind.padEnd(kindWidth)}  ${(k.duplicate ? 'dup' : 'not').padEnd(5)}  ${String(k.pairs).padStart(5)}  ${share(k.correctAtConfigured)}  `
        + `${share(k.correctAtBest)}  ${share(k.correctDecided, 13)}  ${spread}${k.unjudged > 0 ? `, ${k.unjudged} unjudged` : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}
