/**
 * StemCache keeps what it is given as keys and values beyond the document: tokens are slices of the
 * normalised document, and V8 makes a slice of 13 or more code units a view of its parent string, so
 * a cached word must be an own copy or it keeps its whole document alive until the cache starts over
 * (200,000 entries by default, one cache per batch worker). And a warm cache must give what an empty
 * one gives, for every language it serves.
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../helpers/collect-garbage.js';
import { defaultConfig } from '../../src/config.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { goldenInputs } from '../analyze/golden-cases.js';
import { stemmerFor } from '../../src/text/remove-stop-words-and-stem.js';
import { StemCache } from '../../src/text/stem-cache.js';

function heapBytes(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe('StemCache retention', () => {
  it('does not keep the documents its words were sliced from', () => {
    const cache = new StemCache();
    const stem = stemmerFor('spa', { stemCache: cache });
    stem('documentación');
    const before = heapBytes();
    const filler = 'la casa del perro es grande y bonita '.repeat(50_000); // ~1.85 MB
    for (let d = 0; d < 20; d++) {
      // A fresh document of ~1.85 MB (one-byte string) with one long word of its own at the end.
      const suffix = String.fromCharCode(97 + (d % 26)) + String.fromCharCode(97 + Math.floor(d / 26));
      const text = `${filler}internacionalizaciones${suffix}`;
      const start = text.length - 24;
      stem(text.slice(start, text.length)); // a token as the pipeline slices it
    }
    const retained = heapBytes() - before;
    expect(cache.size).toBe(21);
    // 20 cached words of 24 units need a few kB; while they are slices, ~37 MB of documents stay alive.
    expect(retained).toBeLessThan(2_000_000);
  });
});

describe('StemCache reuse', () => {
  it('gives the same analyses warm as without a cache, in every language (texts analysed twice through one cache)', () => {
    const params = fingerprintParamsFrom(defaultConfig().fingerprint);
    const cache = new StemCache();
    const inputs = goldenInputs().map(([, text]) => text);
    const languages = new Set<string>();
    for (let pass = 0; pass < 2; pass++) {
      for (const text of inputs) {
        const cold = analyzeText(text, params);
        languages.add(cold.language);
        expect(analyzeText(text, params, { stemCache: cache })).toEqual(cold);
      }
    }
    // The cache served the snowball-stemmers languages (English, Russian and German bypass it).
    for (const language of ['spa', 'fra', 'ita', 'por', 'nld', 'swe']) expect(languages).toContain(language);
    expect(cache.size).toBeGreaterThan(200);
  });
});
