/** Output of `neardup filter`: one JSON line per list, or a readable text block. */
import type { FilteredList } from './filter-results.js';

/** Similarities are printed with 3 decimals: enough to compare with a threshold, stable to read. */
const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The filtered list as one JSON line: {"query","class","threshold",...,"results":[...kept, with "duplicates"]}. */
export function formatFilteredJson(list: FilteredList): string {
  const out = {
    query: list.query,
    class: list.class,
    threshold: list.threshold,
    level: list.level,
    rules: list.rules,
    language: list.language,
    results: list.results.map((r) => ({ ...r, duplicates: r.duplicates.map((d) => ({ ...d, similarity: round(d.similarity) })) })),
    // Only on a list past the cap (config filter.maxResults): its last results were not compared.
    ...(list.unfiltered > 0 ? { unfiltered: list.unfiltered } : {}),
  };
  return `${JSON.stringify(out)}\n`;
}

/** The filtered list as text: the query and its class, then each kept result with its duplicates indented. */
export function formatFilteredText(list: FilteredList): string {
  const rules = list.rules.length > 0 ? `, rules ${list.rules.join(' ')}` : '';
  const unfiltered = list.unfiltered > 0 ? `, last ${list.unfiltered} results not compared` : '';
  const lines = [`${list.query}  [${list.class}, ${list.level}, threshold ${list.threshold}${rules}${unfiltered}]`];
  list.results.forEach((r, i) => {
    const title = r.title === undefined || r.title === '' ? '' : `${r.title}  `;
    lines.push(`${String(i + 1).padStart(3)}. ${title}<${r.url}>`);
    for (const d of r.duplicates) {
      lines.push(`       = ${d.similarity.toFixed(3)}${d.synonyms ? ' (synonyms)' : ''}  <${d.url}>`);
    }
  });
  return `${lines.join('\n')}\n\n`;
}
