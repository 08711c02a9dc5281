/**
 * Flag rows keep their evidence compactly (flag-row.ts) and give back the flag itself: every kind
 * round-trips (a compiled flag's sources named by the index's document URLs), the stored JSON is
 * smaller than the flag's own, and rows in the full form that earlier releases stored still read
 * as the same flag.
 */
import { describe, expect, it } from 'vitest';
import { flagOfRow, flagRowsOf } from '../../src/cascade/flag-row.js';
import { GENERATED_FEATURE_NAMES } from '../../src/cascade/generated-features.js';
import type { CascadeFlag, CompiledFlag } from '../../src/types.js';

const features = Object.fromEntries(GENERATED_FEATURE_NAMES.map((name, i) => [name, i === 3 ? 0 : 0.5 + i / 100]));
const flags: CascadeFlag[] = [
  { kind: 'generated', score: 0.9015, confidence: 0.92, path: ['topContentShare < 0.1808'], features },
  {
    kind: 'compiled',
    sources: [
      { id: 5993, url: 'https://corpus.example/doc/5992', share: 0.3023, paragraphs: [] },
      { id: 12514, url: 'https://corpus.example/doc/12513', share: 0.2791, paragraphs: [0, 2] },
    ],
    coveredShare: 0.5814,
    test: 'containment',
  },
  { kind: 'homoglyph', words: 2, share: 0.004831, examples: ['Все'], marked: ['[В U+0412 Cyrillic]се'] },
  {
    kind: 'synonymised',
    sourceId: 4,
    sourceUrl: 'http://src.test/4',
    tagSimilarity: 0.61,
    wordSimilarity: 0.12,
    substitutedShare: 0.3,
    explainedShare: 0.9,
    examples: [['big', 'large']],
  },
];

/** The index's documents: the compiled flag's sources. */
const urls = new Map([[5993, 'https://corpus.example/doc/5992'], [12514, 'https://corpus.example/doc/12513']]);
const urlOf = (id: number) => urls.get(id);

/** The flag with its keys sorted, as flagOfRow gives it. */
function sorted(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v)));
}

describe('flag rows', () => {
  it.each(flags.map((f) => [f.kind, f] as const))('a %s flag reads back as itself, from fewer bytes', (_kind, flag) => {
    const [row] = flagRowsOf('http://page.test/', 7, [flag]);
    expect(row!.kind).toBe(flag.kind);
    expect(flagOfRow(row!, urlOf)).toEqual(sorted(flag));
    expect(row!.evidence.length).toBeLessThan(JSON.stringify(flag).length);
    expect(row!.evidence).not.toContain('"kind"');
  });

  it('a compiled flag keeps its sources\' ids, not their URLs; without the index\'s URLs a source reads with an empty one', () => {
    const [row] = flagRowsOf('http://page.test/', 7, [flags[1]!]);
    expect(row!.evidence).not.toContain('corpus.example');
    const read = flagOfRow(row!) as CompiledFlag;
    expect(read.sources.map((s) => [s.id, s.url])).toEqual([[5993, ''], [12514, '']]);
  });

  it('a generated flag keeps its features as an array: most of its bytes were their names', () => {
    const [generated] = flagRowsOf('http://page.test/', 7, [flags[0]!]);
    expect(generated!.evidence.length).toBeLessThan(JSON.stringify(flags[0]).length / 2);
  });

  it.each(flags.map((f) => [f.kind, f] as const))('a %s row in the full form of earlier releases reads as the same flag', (_kind, flag) => {
    expect(flagOfRow({ kind: flag.kind, evidence: JSON.stringify(flag) })).toEqual(sorted(flag));
  });
});
