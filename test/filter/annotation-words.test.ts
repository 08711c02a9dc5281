import { describe, expect, it } from 'vitest';
import { annotationText, annotationWordSets } from '../../src/filter/annotation-words.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { tokenize } from '../../src/text/tokenize.js';
import { removeStopWordsAndStem } from '../../src/text/remove-stop-words-and-stem.js';

const results = [
  { title: 'Running shoes for the marathon', snippet: 'The runners ran; a runner runs: RUNNING shoes, 42 km!' },
  { title: 'Running shoes', snippet: 'Shoes for running.' },
  { title: 'To be or not to be', snippet: '' },
  { snippet: 'Кроссовки для бега и марафона' },
  {},
  { title: 'Mаrathоn shоes', snippet: 'with Cyrillic а and о inside' },
];

describe('annotationWordSets', () => {
  it('gives each result the words removeStopWordsAndStem gives its title and snippet', () => {
    for (const language of ['eng', 'rus', 'und']) {
      const { sets, stems } = annotationWordSets(results, language);
      results.forEach((r, i) => {
        const expected = new Set(removeStopWordsAndStem(tokenize(normalizeText(annotationText(r))), language));
        expect(new Set([...sets[i]!].map((id) => stems[id]))).toEqual(expected);
      });
    }
  });

  it('numbers words across the list: ascending, distinct, shared ids for shared words', () => {
    const { sets, stems } = annotationWordSets(results, 'eng');
    for (const set of sets) for (let k = 1; k < set.length; k++) expect(set[k]!).toBeGreaterThan(set[k - 1]!);
    expect(new Set(stems).size).toBe(stems.length);
    const shoe = stems.indexOf('shoe');
    expect([...sets[0]!]).toContain(shoe);
    expect([...sets[1]!]).toContain(shoe);
    expect([...sets[5]!]).toContain(shoe); // look-alike letters folded
    expect(sets[4]!.length).toBe(0);
  });
});
