import snowball from 'snowball-stemmers';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { FAST_SNOWBALL_ALGORITHMS, fastSnowballStemmer } from '../../src/text/fast-snowball.js';
import { loadDevTruth } from '../helpers/dev-texts.js';

const devWords = (() => {
  const truth = loadDevTruth();
  const words = new Set<string>();
  for (const { articleBody } of Object.values(truth)) for (const w of articleBody.toLowerCase().split(/[^\p{L}\p{M}\p{N}']+/u)) if (w !== '') words.add(w);
  return [...words];
})();

/** Algorithm → stopwords-iso code: the languages neardup stems through snowball-stemmers. */
const LANGUAGES: Readonly<Record<string, string>> = {
  spanish: 'es', catalan: 'ca', french: 'fr', portuguese: 'pt', italian: 'it', dutch: 'nl',
  swedish: 'sv', hungarian: 'hu', turkish: 'tr', romanian: 'ro', czech: 'cs', arabic: 'ar',
};

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The language's stop words, each of them with others appended (suffix-like endings), and random words of its letters. */
function wordsFor(code: string, seed: number): string[] {
  const stop = ((stopwordsIso as Record<string, string[]>)[code] ?? []).map((w) => w.toLowerCase());
  const letters = [...new Set(stop.join(''))].filter((c) => /\p{L}/u.test(c));
  const rand = lcg(seed);
  const out = [...stop];
  for (const a of stop) for (const b of stop.slice(0, 25)) out.push(a + b);
  for (let k = 0; k < 8000; k++) {
    let w = '';
    const length = 1 + Math.floor(rand() * 14);
    for (let i = 0; i < length; i++) w += letters[Math.floor(rand() * letters.length)]!;
    out.push(w);
  }
  return out;
}

describe('fastSnowballStemmer', () => {
  it('hosts every algorithm neardup stems through snowball-stemmers', () => {
    for (const algorithm of Object.keys(LANGUAGES)) expect(FAST_SNOWBALL_ALGORITHMS).toContain(algorithm);
    expect(fastSnowballStemmer('klingon')).toBeNull();
  });

  it.each(Object.entries(LANGUAGES))('%s: the package’s stem for every dev-page word, stop word and generated word', (algorithm, code) => {
    const reference = snowball.newStemmer(algorithm);
    const fast = fastSnowballStemmer(algorithm)!;
    const words = [...devWords, ...wordsFor(code, algorithm.length)];
    const mismatches = words.filter((w) => fast(w) !== reference.stem(w)).slice(0, 5);
    expect(mismatches.map((w) => [w, reference.stem(w), fast(w)])).toEqual([]);
    expect(words.length).toBeGreaterThan(10_000);
  });

  it('keeps no state between words that changes a stem (order does not matter)', () => {
    const fast = fastSnowballStemmer('spanish')!;
    const words = devWords.slice(0, 2000);
    const forward = words.map(fast);
    const backward = [...words].reverse().map(fast).reverse();
    expect(backward).toEqual(forward);
  });
});
