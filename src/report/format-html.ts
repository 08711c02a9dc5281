/**
 * `clusters --format html`: one self-contained page a person can open offline — summary counts,
 * two inline SVG plots (distances of rejected pages, cluster sizes), host mirror pairs and the
 * clusters, largest first, each with its primary, the reasons and its members (with their flags),
 * and the pages the cascade flagged with their evidence.
 *
 * Safety: the page has no script at all and a Content-Security-Policy that forbids loading
 * anything (`default-src 'none'`; inline styles and data: images only). Every crawled string goes
 * through `escapeHtml`; only http(s) URLs become links, with `rel="noopener noreferrer nofollow"`;
 * titles sit in `<bdi>` so right-to-left text cannot reorder the page around them.
 */
import type { Cluster, ClusterReport, ClusterStats, HostMirror } from './cluster-report.js';
import { escapeHtml, urlHtml } from './html-escape.js';
import { svgBarChart, type ChartBar } from './svg-bar-chart.js';

export interface HtmlReportOptions {
  /** Where the data came from (the --data folder), shown in the header. @default none */
  readonly source?: string;
  /** Shown in the header. @default none (the page is then byte-for-byte reproducible) */
  readonly generatedAt?: Date;
  /** Clusters listed in the page (the largest); the JSON and CSV always list all. @default 1000 */
  readonly maxClusters?: number;
  /** Members listed per cluster. @default 200 */
  readonly maxMembers?: number;
}

export const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const styles = `
:root{color-scheme:light;--fg:#1d2327;--muted:#5f6b76;--line:#dde2e7;--accent:#3b6fb6;--bg:#f6f7f9}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1180px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
.sub{color:var(--muted);margin:0;overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin-top:18px}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card b{display:block;font-size:22px;font-variant-numeric:tabular-nums}
.card span{color:var(--muted);font-size:12px}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px}
figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px}
figcaption{font-weight:600;margin-bottom:6px}
svg.chart{display:block;width:100%;height:auto;max-width:560px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
th,td{text-align:left;vertical-align:top;padding:8px 10px;border-bottom:1px solid var(--line)}
th{background:#eef1f4;font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
.url{overflow-wrap:anywhere;word-break:break-word}
.title{display:block;font-weight:600;margin-bottom:2px;overflow-wrap:anywhere}
.untitled{color:var(--muted);font-style:italic}
ul.reasons{margin:0;padding-left:18px}
.badge{display:inline-block;font-size:11px;border-radius:4px;padding:0 6px;margin-right:4px;background:#eef1f4;color:var(--muted);white-space:nowrap}
.badge.primary{background:#dcebdc;color:#215a21}
.badge.exact{background:#e4ecf7;color:#24497a}
.badge.near{background:#f7eddc;color:#7a5216}
.badge.similar{background:#f7dfe6;color:#7a2443}
.badge.stored{background:#ece4f7;color:#4b2b7a}
.badge.flag{background:#fbe9d0;color:#7a3d00}
details summary{cursor:pointer;color:var(--accent)}
table.members{margin-top:8px;font-size:13px}
table.members td,table.members th{padding:4px 8px}
table.members .title{font-weight:400}
.note{color:var(--muted);font-style:italic}
`;

function num(n: number): string {
  return n.toLocaleString('en-US');
}

function titleHtml(title: string): string {
  return title.trim() === '' ? '<span class="title untitled">(no title)</span>' : `<bdi class="title">${escapeHtml(title)}</bdi>`;
}

function summaryHtml(stats: ClusterStats): string {
  const cards: [string, string][] = [
    ['documents judged', num(stats.documents)],
    ['stored (kept)', num(stats.stored)],
    ['rejected', `${num(stats.rejected)}`],
    ['exact duplicates', num(stats.exact)],
    ['near duplicates', num(stats.near)],
    ['similar (second stage)', num(stats.similar)],
    ['skipped', stats.skipped === null ? '—' : num(stats.skipped)],
    ['clusters', num(stats.clusters)],
    ['URLs in clusters', num(stats.clusteredDocuments)],
    ['largest cluster', num(stats.largestCluster)],
    ['singletons', num(stats.singletons)],
    ['primary not the stored copy', num(stats.primaryNotStored)],
    ['mirror host pairs', num(stats.mirrors)],
  ];
  if (stats.orphans > 0) cards.push(['orphan rejects', num(stats.orphans)]);
  for (const [kind, n] of Object.entries(stats.flagged ?? {})) cards.push([`flagged ${kind}`, num(n)]);
  const items = cards.map(([label, value]) => `<div class="card"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`);
  let skippedLine = '';
  const reasons = Object.entries(stats.skippedBy);
  if (reasons.length > 0) {
    skippedLine = `<p class="sub">Skipped by reason: ${reasons.map(([r, n]) => `${escapeHtml(r)} ${num(n)}`).join(', ')}</p>`;
  }
  return `<section id="summary"><div class="cards">${items.join('')}</div>${skippedLine}</section>`;
}

/** Cluster sizes as bars: one per size up to 16, then 1–2–5 ranges. */
export function clusterSizeBars(counts: ClusterStats['clusterSizeCounts']): ChartBar[] {
  if (counts.length === 0) return [];
  const maxSize = counts[counts.length - 1]!.size;
  const ranges: [number, number][] = [];
  if (maxSize <= 16) {
    for (let s = 2; s <= maxSize; s++) ranges.push([s, s]);
  } else {
    for (let s = 2; s <= 5; s++) ranges.push([s, s]);
    ranges.push([6, 9]);
    for (let low = 10; low <= maxSize; ) {
      const digits = 10 ** Math.floor(Math.log10(low));
      const lead = low / digits;
      const high = (lead === 1 ? 2 * digits : lead === 2 ? 5 * digits : 10 * digits) - 1;
      ranges.push([low, high]);
      low = high + 1;
    }
  }
  return ranges.map(([low, high]) => {
    let value = 0;
    for (const c of counts) if (c.size >= low && c.size <= high) value += c.clusters;
    const label = low === high ? String(low) : `${low}–${high}`;
    return { label, value, tooltip: `${value} cluster${value === 1 ? '' : 's'} of ${label} URLs` };
  });
}

function plotsHtml(stats: ClusterStats): string {
  const distanceBars: ChartBar[] = stats.distanceCounts.map((value, d) => ({
    label: String(d),
    value,
    tooltip: `${value} rejected page${value === 1 ? '' : 's'} at distance ${d}`,
  }));
  const k = stats.distanceThreshold;
  const distances = svgBarChart({
    id: 'plot-distances',
    title: 'Histogram of the Hamming distances of rejected pages to the document they matched',
    xLabel: 'Hamming distance to the matched document (0 = exact or same fingerprint)',
    yLabel: 'rejected pages',
    bars: distanceBars,
    emptyText: 'no rejected pages',
    ...(k === null ? {} : { marker: { afterIndex: k, label: `k = ${k}` } }),
  });
  const sizes = svgBarChart({
    id: 'plot-sizes',
    title: 'Distribution of cluster sizes',
    xLabel: 'URLs in the cluster',
    yLabel: 'clusters',
    bars: clusterSizeBars(stats.clusterSizeCounts),
    emptyText: 'no clusters',
  });
  return '<section id="plots"><h2>Plots</h2><div class="plots">'
    + `<figure><figcaption>Distances of rejected pages</figcaption>${distances}</figure>`
    + `<figure><figcaption>Cluster sizes</figcaption>${sizes}</figure></div></section>`;
}

function mirrorsHtml(mirrors: readonly HostMirror[]): string {
  if (mirrors.length === 0) return '<section id="mirrors"><h2>Host mirrors</h2><p class="note">No host mirrors pair passed the threshold.</p></section>';
  const rows = mirrors.map((m) => '<tr>'
    + `<td class="url">${escapeHtml(m.mirror)}</td>`
    + `<td class="url">${escapeHtml(m.original)}</td>`
    + `<td class="num">${num(m.pages)} of ${num(m.of)}</td>`
    + `<td class="num">${(m.share * 100).toFixed(1)}%</td>`
    + `<td>${m.mutual ? `yes: ${num(m.originalPages)} of ${num(m.originalOf)} ${escapeHtml(m.original)} pages too` : ''}</td>`
    + `<td>${escapeHtml(m.summary)}</td></tr>`);
  return '<section id="mirrors"><h2>Host mirrors</h2><table id="mirrors-table"><thead><tr>'
    + '<th>mirror</th><th>original</th><th class="num">pages</th><th class="num">share</th><th>mutual</th><th>summary</th>'
    + `</tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function membersHtml(cluster: Cluster, maxMembers: number): string {
  const shown = cluster.members.slice(0, maxMembers);
  const rows = shown.map((m) => {
    const badges = `<span class="badge ${m.kind}">${m.kind}</span>${m.stored ? '<span class="badge stored">stored</span>' : ''}`;
    const redirect = m.finalUrl === undefined ? '' : `<div class="sub">→ ${urlHtml(m.finalUrl)}</div>`;
    const matched = m.matchUrl === undefined || m.matchUrl === cluster.primary ? ''
      : `<div class="sub">index matched ${urlHtml(m.matchUrl)} at distance ${m.matchDistance ?? ''}</div>`;
    const similarity = m.similarity === undefined ? '' : `${m.similarity.toFixed(2)}${m.containment === undefined ? '' : ` (contained ${m.containment.toFixed(2)})`}`;
    const flags = (m.flags ?? []).map((f) => `<a class="badge flag" href="#flag-${escapeHtml(f)}">${escapeHtml(f)}</a>`).join('');
    return `<tr><td>${badges}</td><td class="num">${m.distance}</td><td class="num">${similarity}</td><td>${urlHtml(m.url)}${redirect}${matched}</td><td>${titleHtml(m.title)}</td><td>${flags}</td></tr>`;
  });
  const more = cluster.members.length > shown.length
    ? `<p class="note">${num(cluster.members.length - shown.length)} more members in the JSON and CSV reports.</p>` : '';
  return `<details><summary>${num(cluster.size)} members</summary><table class="members"><thead><tr>`
    + '<th>kind</th><th class="num">distance</th><th class="num">similarity</th><th>URL</th><th>title</th><th>flags</th>'
    + `</tr></thead><tbody>${rows.join('')}</tbody></table>${more}</details>`;
}

function clustersHtml(report: ClusterReport, maxClusters: number, maxMembers: number): string {
  const shown = report.clusters.slice(0, maxClusters);
  const head = `<section id="clusters"><h2>Clusters <span class="sub">(largest first)</span></h2>`;
  if (shown.length === 0) return `${head}<p class="note">No duplicate clusters: every judged page is unique.</p></section>`;
  const rows = shown.map((c) => `<tr class="cluster" id="cluster-${c.id}">`
    + `<td class="num">${c.id}</td><td class="num">${num(c.size)}</td>`
    + `<td>${titleHtml(c.title)}${urlHtml(c.primary)}</td>`
    + `<td><ul class="reasons">${c.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul></td>`
    + `<td>${membersHtml(c, maxMembers)}</td></tr>`);
  const more = report.clusters.length > shown.length
    ? `<p class="note">Showing the ${num(shown.length)} largest of ${num(report.clusters.length)} clusters; the JSON and CSV reports list all.</p>` : '';
  return `${head}${more}<table id="clusters-table"><thead><tr>`
    + '<th class="num">#</th><th class="num">size</th><th>primary</th><th>why primary</th><th>members</th>'
    + `</tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/**
 * The pages the cascade flagged, with one line of evidence a flag (the JSON report has it all);
 * an anchor per kind (`#flag-homoglyph`, ...) at its first page, for the members' flag badges.
 */
function flaggedHtml(report: ClusterReport, maxPages: number): string {
  if (report.flagged === undefined) return '';
  const head = '<section id="flagged"><h2>Flagged pages <span class="sub">(how a page was made: look-alike letters, generated, synonymised, compiled)</span></h2>';
  if (report.flagged.length === 0) return `${head}<p class="note">No page was flagged.</p></section>`;
  const anchored = new Set<string>();
  const rows = report.flagged.slice(0, maxPages).map((p) => {
    const badges = p.kinds.map((k) => {
      const id = anchored.has(k) ? '' : ` id="flag-${escapeHtml(k)}"`;
      anchored.add(k);
      return `<span class="badge flag"${id}>${escapeHtml(k)}</span>`;
    }).join('');
    const status = p.docId === null ? '<span class="badge">skipped</span>' : '';
    return `<tr><td>${badges}${status}</td><td>${urlHtml(p.url)}</td><td><ul class="reasons">${p.summary.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul></td></tr>`;
  });
  const more = report.flagged.length > rows.length ? `<p class="note">Showing ${num(rows.length)} of ${num(report.flagged.length)} flagged pages; the JSON and CSV reports list all.</p>` : '';
  return `${head}${more}<table id="flagged-table"><thead><tr><th>flags</th><th>URL</th><th>evidence</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/** The report as one self-contained HTML page. */
export function formatClustersHtml(report: ClusterReport, options: HtmlReportOptions = {}): string {
  const maxClusters = options.maxClusters ?? 1000;
  const maxMembers = options.maxMembers ?? 200;
  const sub: string[] = [];
  if (options.source !== undefined) sub.push(`from <code>${escapeHtml(options.source)}</code>`);
  if (options.generatedAt !== undefined) sub.push(`generated ${escapeHtml(options.generatedAt.toISOString())}`);
  if (report.stats.distanceThreshold !== null) sub.push(`near-duplicate threshold k = ${report.stats.distanceThreshold}`);
  return '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
    + `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy)}">`
    + '<meta name="referrer" content="no-referrer">'
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + '<title>neardup — duplicate URL clusters</title>'
    + `<style>${styles}</style></head><body><main>`
    + '<header><h1>Duplicate URL clusters</h1>'
    + `<p class="sub">${sub.length === 0 ? 'neardup report' : `neardup report ${sub.join(' · ')}`}</p></header>`
    + summaryHtml(report.stats)
    + plotsHtml(report.stats)
    + mirrorsHtml(report.mirrors)
    + clustersHtml(report, maxClusters, maxMembers)
    + flaggedHtml(report, maxClusters)
    + '</main></body></html>\n';
}
