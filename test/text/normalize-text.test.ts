import { alphabetMap } from 'confusables';
import { describe, expect, it } from 'vitest';
import { dominantScript, foldHomoglyphs } from '../../src/text/fold-homoglyphs.js';
import { HOMOGLYPH_CLASSES } from '../../src/text/homoglyph-table.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { tokenize } from '../../src/text/tokenize.js';

describe('normalizeText', () => {
  it('applies NFKC and lower case', () => {
    expect(normalizeText('ＡＢＣ ﬁle Ⅻ')).toBe('abc file xii');
    expect(normalizeText('Cafe\u0301')).toBe('café');
  });

  it('folds Cyrillic look-alikes in Latin text to Latin', () => {
    expect(normalizeText('Тhе quiсk brоwn fох')).toBe('the quick brown fox');
    expect(normalizeText('РАУРАL')).toBe('paypal');
  });

  it('folds Latin look-alikes in Cyrillic text to Cyrillic', () => {
    const original = 'Расход денег на рекламу в этом году';
    const spoofed = 'Pacxoд дeнeг нa peклaму в этoм гoду';
    expect(normalizeText(spoofed)).toBe(normalizeText(original));
    expect(normalizeText(original)).toBe(original.toLowerCase());
  });

  it('folds Greek look-alikes in Latin text', () => {
    expect(normalizeText('ΤΗΕ ΚΕΥ ΜΑΝ')).toBe('the key man');
  });

  it('leaves Greek text Greek', () => {
    expect(normalizeText('Καλημέρα κόσμε')).toBe('καλημέρα κόσμε');
  });

  it('replaces lone surrogates instead of throwing', () => {
    expect(normalizeText('a\uD800b\uDC00c')).toBe('a\uFFFDb\uFFFDc');
    expect(normalizeText('😀 ok')).toBe('😀 ok');
  });

  it('rejects non-strings', () => {
    expect(() => normalizeText(42 as unknown as string)).toThrow(TypeError);
  });
});

describe('dominantScript', () => {
  it.each([
    ['hello world', 'latin'],
    ['привет мир', 'cyrillic'],
    ['γειά σου κόσμε', 'greek'],
    ['123 !!', null],
    // Only look-alike letters: no evidence either way, Latin by default.
    ['асе', null],
  ])('%s → %s', (text, script) => {
    expect(dominantScript(text)).toBe(script);
  });

  it('folds by the classes, letter by letter, around astral characters and lone surrogates', () => {
    // The fold's definition: each class member not of the target script becomes the class's
    // letter of the target script (its Latin letter when the script has none).
    const reference = (text: string, script: 'latin' | 'cyrillic' | 'greek'): string => {
      const map = new Map<string, string>();
      for (const cls of HOMOGLYPH_CLASSES) {
        const target = (script === 'cyrillic' ? cls.cyrillic : script === 'greek' ? cls.greek : '') || cls.latin;
        for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) if (member !== '') map.set(member, target);
      }
      return Array.from(text, (ch) => map.get(ch) ?? ch).join('');
    };
    const latin = 'Тhе 𝐀 quick рrоcеss 😀 ΑΒС ԁоne \ud800 ѕeen';
    expect(foldHomoglyphs(latin)).toBe(reference(latin, 'latin'));
    expect(foldHomoglyphs(latin)).toContain('The 𝐀 quick process 😀 ABC done \ud800 seen');
    const cyrillic = 'Прuвет, мuр 😀 КОТ и KOT \udc00 cвет';
    expect(dominantScript(cyrillic)).toBe('cyrillic');
    expect(foldHomoglyphs(cyrillic)).toBe(reference(cyrillic, 'cyrillic'));
    const greek = 'Γειά σου κόσμε AB ΑΒ';
    expect(foldHomoglyphs(greek)).toBe(reference(greek, 'greek'));
    // Nothing to fold: the very text.
    expect(foldHomoglyphs('привет мир')).toBe('привет мир');
  });

  it('is idempotent (normalizeText folds a second time only when NFKC changed the text)', () => {
    const members = HOMOGLYPH_CLASSES.flatMap((cls) => [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]).filter((m) => m !== '').join('');
    for (const context of ['plain latin words here', 'простой русский текст', 'απλό ελληνικό κείμενο', '']) {
      const text = `${context} ${members} ${context}`;
      const once = foldHomoglyphs(text);
      expect(foldHomoglyphs(once)).toBe(once);
      expect(normalizeText(text)).toBe(foldHomoglyphs(foldHomoglyphs(text).normalize('NFKC')).toLowerCase());
    }
  });

  it('is unchanged by swapping letters for look-alikes', () => {
    const text = 'The accepted proposal of the copper company';
    const swapped = text.replace(/[aceop]/g, (c) => ({ a: 'а', c: 'с', e: 'е', o: 'о', p: 'р' })[c]!);
    expect(dominantScript(swapped)).toBe(dominantScript(text));
    expect(foldHomoglyphs(swapped)).toBe(text);
  });
});

describe('homoglyph table', () => {
  it('has one Latin letter per class and no letter in two classes', () => {
    const seen = new Set<string>();
    for (const cls of HOMOGLYPH_CLASSES) {
      for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) {
        if (member === '') continue;
        expect(seen.has(member), member).toBe(false);
        seen.add(member);
      }
    }
  });

  it('has members of one BMP code unit each, none a surrogate (the fold goes unit by unit)', () => {
    for (const cls of HOMOGLYPH_CLASSES) {
      for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) {
        if (member === '') continue;
        expect(member.length, member).toBe(1);
        expect(member.charCodeAt(0) >= 0xd800 && member.charCodeAt(0) <= 0xdfff, member).toBe(false);
      }
    }
  });

  it('lists only pairs the confusables package also maps to the same Latin letter', () => {
    // The package maps capital І, Ι, Ӏ to lower-case l rather than I (both look alike).
    const alsoAs: Record<string, string> = { I: 'l' };
    for (const cls of HOMOGLYPH_CLASSES) {
      const alternates = new Set([
        ...(alphabetMap.get(cls.latin) ?? []),
        ...(alphabetMap.get(cls.latin.toLowerCase()) ?? []),
        ...(alphabetMap.get(cls.latin.toUpperCase()) ?? []),
        ...(alphabetMap.get(alsoAs[cls.latin] ?? '') ?? []),
      ]);
      for (const member of [cls.cyrillic, cls.greek, ...cls.extra]) {
        if (member !== '') expect(alternates.has(member), `${cls.latin} ~ ${member}`).toBe(true);
      }
    }
  });
});

describe('normalizeText: default-ignorable code points (issue 28, normaliser 3)', () => {
  it.each([
    ['soft hyphen', '\u00ad'], ['zero width space', '\u200b'], ['ZWNJ', '\u200c'], ['ZWJ', '\u200d'],
    ['word joiner', '\u2060'], ['BOM / ZWNBSP', '\ufeff'], ['variation selector 16', '\ufe0f'],
    ['left-to-right mark', '\u200e'], ['Mongolian vowel separator', '\u180e'], ['tag character', '\u{e0041}'],
  ])('%s inside a word is removed, so the word is the same token', (_name, ch) => {
    expect(normalizeText(`de${ch}dupli${ch}cation Co${ch}py`)).toBe('deduplication copy');
    expect(tokenize(normalizeText(`near${ch}duplicate`))).toEqual(['nearduplicate']);
  });

  it('leaves text without them as it was', () => {
    expect(normalizeText('Plain text, no ignorables.')).toBe('plain text, no ignorables.');
  });
});
