/**
 * stemEnglish works in a scratch buffer; one long token (a base64 blob or data: URI in a page's
 * text) must not leave memory in proportion to its length allocated after the call.
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../helpers/collect-garbage.js';
import { stemEnglish } from '../../src/text/english-stemmer.js';

function arrayBufferBytes(): number {
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

describe('stemEnglish memory', () => {
  it('does not keep memory in proportion to the longest word after the call', () => {
    for (let i = 0; i < 10; i++) stemEnglish('running');
    const before = arrayBufferBytes();
    let word: string | null = `${'abcdefghij'.repeat(1_000_000)}ing`; // one 10M-unit token
    expect(stemEnglish(word).length).toBeGreaterThan(0);
    word = null;
    for (let i = 0; i < 10; i++) stemEnglish('jumping');
    const retained = arrayBufferBytes() - before;
    // A buffer grown to the longest word ever stemmed would keep ~40 MB here.
    expect(retained).toBeLessThan(4_000_000);
  });
});
