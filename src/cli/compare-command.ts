/**
 * `neardup compare <a> <b>`: the Hamming distance of two texts' fingerprints and the verdict the
 * index would give the second text with the first stored: `near-duplicate` (distance ≤ k),
 * `similar` (the second stage: a candidate whose sketch passes, see config `verify`), or
 * `distinct`; then the sketches' Jaccard similarity and containment estimates (second stage on);
 * then, on a second line when there are any, the cascade's flags (file-cascade.ts): each file's own,
 * and whether one is a synonymised copy of the other.
 */
import type { Command } from 'commander';
import { ValidationError } from '../errors.js';
import { fingerprintToHex, hammingDistance } from '../fingerprint/fingerprint-codec.js';
import { addFingerprintOptions, configFrom, type FingerprintFlags } from './fingerprint-flags.js';
import { analyzeFileWithCascade, copyRelation, type CopyRelation, type FileCascade } from './file-cascade.js';
import { pairDecision } from '../eval/evaluate-pairs.js';
import { sketchSimilarity } from '../fingerprint/sketch-similarity.js';
import { intFlag, verifyOption } from './shared.js';
import { forStdout } from './terminal-text.js';

/**
 * The cascade's second line (none when nothing is flagged): e.g. `flags: a homoglyph; b synonymised
 * copy of a (28% of stems synonyms)`.
 */
function flagNotes(a: FileCascade, b: FileCascade, copy: CopyRelation | null): string {
  const notes: string[] = [];
  for (const [name, side] of [['a', a], ['b', b]] as const) if (side.flags.length > 0) notes.push(`${name} ${side.flags.map((f) => f.kind).join(' ')}`);
  if (copy?.synonymised != null) {
    const { copy: which, substitutedShare } = copy.synonymised;
    notes.push(`${which} synonymised copy of ${which === 'a' ? 'b' : 'a'} (${(100 * substitutedShare).toFixed(0)}% of stems synonyms)`);
  }
  return notes.length === 0 ? '' : `flags: ${notes.join('; ')}`;
}

export function registerCompare(program: Command): void {
  const command = program
    .command('compare')
    .description('print the distance of two texts\' fingerprints and "near-duplicate" or "distinct"')
    .argument('<a>', 'first text file (or - for standard input)')
    .argument('<b>', 'second text file (or - for standard input)')
    .option('--distance <k>', 'near-duplicate threshold k (default: config fingerprint.distance, 3)', intFlag('distance', 0, 31));
  addFingerprintOptions(command)
    .addOption(verifyOption())
    .option('--json', 'print {"distance","verdict","threshold","similarity","containment","a","b","copy"} as JSON (a, b: with their cascade flags; copy: synonymised copy and paragraph cover of each by the other)', false)
    .action(async (a: string, b: string, flags: FingerprintFlags & { readonly distance?: number; readonly json: boolean; readonly verify?: 'on' | 'off' }, cmd: Command) => {
      if (a === '-' && b === '-') throw new ValidationError('Expected at most one of `a` and `b` to be `-` (standard input)');
      const base = configFrom(cmd, flags);
      const config = flags.verify === undefined ? base : { ...base, verify: { ...base.verify, enabled: flags.verify === 'on' } };
      const html = flags.html === true;
      const leftFile = await analyzeFileWithCascade(a, config, html);
      const rightFile = await analyzeFileWithCascade(b, config, html);
      const left = leftFile.analysis;
      const right = rightFile.analysis;
      const copy = copyRelation(leftFile, rightFile, config, [a, b]);
      const distance = hammingDistance(left.fingerprint!, right.fingerprint!);
      const threshold = config.fingerprint.distance;
      const measured = (x: typeof left) => ({ fingerprint: x.fingerprint, textHash: x.textHash, sketch: x.sketch ?? null });
      const decision = pairDecision(measured(left), measured(right), threshold, config.verify).decision;
      const verdict = decision === 'similar' ? 'similar' : distance <= threshold ? 'near-duplicate' : 'distinct';
      const estimate = left.sketch === undefined || right.sketch === undefined ? null : sketchSimilarity(left.sketch, right.sketch, config.verify.sketchSize);
      const similarity = estimate === null ? null : Number(estimate.jaccard.toFixed(3));
      const containment = estimate === null ? null : Number(estimate.containment.toFixed(3));
      if (flags.json) {
        const side = (x: FileCascade) => ({
          fingerprint: fingerprintToHex(x.analysis.fingerprint!), language: x.analysis.language, tokens: x.analysis.tokenCount, features: x.analysis.featureCount, flags: x.flags,
        });
        process.stdout.write(`${JSON.stringify({ distance, verdict, threshold, similarity, containment, exact: left.textHash === right.textHash, a: side(leftFile), b: side(rightFile), copy })}\n`);
      } else {
        process.stdout.write(`${distance} ${verdict}${estimate === null ? '' : ` similarity ${similarity!.toFixed(3)} containment ${containment!.toFixed(3)}`}\n`);
        const notes = flagNotes(leftFile, rightFile, copy);
        if (notes !== '') process.stdout.write(forStdout(`${notes}\n`));
      }
    });
}
