import { describe, expect, it } from 'vitest';
import { countHomoglyphWords, homoglyphFlag } from '../../src/cascade/homoglyph-words.js';

const options = { enabled: true, minWords: 2, minShare: 0 };

describe('homoglyph stage', () => {
  it('finds Cyrillic look-alikes inside English words', () => {
    // "pаper" and "cоde" carry Cyrillic а and о.
    const flag = homoglyphFlag('The p\u0430per explains the c\u043Ede and the plan.', options);
    expect(flag).toEqual({
      kind: 'homoglyph', words: 2, share: 2 / 8, examples: ['p\u0430per', 'c\u043Ede'],
      marked: ['p[\u0430 U+0430 Cyrillic]per', 'c[\u043E U+043E Cyrillic]de'],
    });
  });

  it('marks the look-alike letters by code point and script, whichever script the text is in', () => {
    // A Russian text: the Latin o of "сoбака" is the odd letter; in an English text the Cyrillic р, о, р of "рор" are.
    expect(countHomoglyphWords('Эта с\u006Fбака бежит домой').marked).toEqual(['с[o U+006F Latin]бака']);
    expect(countHomoglyphWords('We heard \u0440\u043E\u0440 music all night long').marked)
      .toEqual(['[\u0440 U+0440 Cyrillic][\u043E U+043E Cyrillic][\u0440 U+0440 Cyrillic]']);
  });

  it('finds Latin look-alikes inside Russian words and whole words in look-alikes', () => {
    // "сoбака" has a Latin o; "рор" is all Cyrillic look-alikes in an English text.
    expect(countHomoglyphWords('Эта с\u006Fбака бежит домой').spoofed).toBe(1);
    expect(countHomoglyphWords('We heard \u0440\u043E\u0440 music all night long').spoofed).toBe(1);
  });

  it('leaves natural texts alone', () => {
    for (const text of [
      'A plain English sentence with nothing odd in it.',
      'Обычный русский текст без подмен, и слово iPhone рядом.',
      'Particles of 3\u03BCm were found; \u03B1-helix and \u03B2-sheet structures.',
      'В Москве а и о с у — однобуквенные слова; OK и XXI век.',
    ]) {
      expect(homoglyphFlag(text, options)).toBeNull();
    }
  });

  it('honours minWords and minShare', () => {
    const text = 'The p\u0430per explains the c\u043Ede and the plan.';
    expect(homoglyphFlag(text, { ...options, minWords: 3 })).toBeNull();
    expect(homoglyphFlag(text, { ...options, minShare: 0.5 })).toBeNull();
  });
  it('weighs the text\'s script by all its letters, also past 2^17 code units (counted in runs)', () => {
    // "рор" (Cyrillic look-alikes) is spoofed only in a Latin text; the plain letters decide the
    // script: ж (Cyrillic) and f (Latin) are no look-alikes. The Latin count runs over 2^17.
    const cyrillic = 'жжжж '.repeat(30_000); // 120,000 plain Cyrillic letters
    const latinMore = 'ffff '.repeat(35_000); // 140,000 plain Latin letters
    const latinLess = 'ffff '.repeat(29_999); // 119,996
    expect(countHomoglyphWords(`${cyrillic}\u0440\u043E\u0440 ${latinMore}`).spoofed).toBe(1);
    expect(countHomoglyphWords(`${latinMore}\u0440\u043E\u0440 ${cyrillic}`).spoofed).toBe(1);
    expect(countHomoglyphWords(`${cyrillic}\u0440\u043E\u0440 ${latinLess}`).spoofed).toBe(0);
    expect(countHomoglyphWords(`${latinLess}\u0440\u043E\u0440 ${cyrillic}`).spoofed).toBe(0);
  });
});
