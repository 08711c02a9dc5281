import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_FILE, goldenInputs, goldenLine } from './golden-cases.js';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Record<string, string>;
const inputs = goldenInputs();

describe('analyzeText: every output equals the recorded reference (text hash, language, tokens, fingerprints, feature counts)', () => {
  it('covers every recorded input', () => {
    expect(inputs.map(([name]) => name).sort()).toEqual(Object.keys(golden).sort());
  });

  it.each(inputs.map(([name, text]) => ({ name, text })))('$name', ({ name, text }) => {
    expect(goldenLine(text)).toBe(golden[name]);
  });
});
