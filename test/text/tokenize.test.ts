import { describe, expect, it } from 'vitest';
import { tokenize, tokenizeParagraphs } from '../../src/text/tokenize.js';

describe('tokenize', () => {
  it.each([
    ['', []],
    ['   \n\t ', []],
    ['hello', ['hello']],
    ['hello, world!', ['hello', 'world']],
    ["l'estat d'aquest", ['l', 'estat', 'd', 'aquest']],
    ['near-duplicate covid19 3.14', ['near', 'duplicate', 'covid19', '3', '14']],
    ['привет, мир', ['привет', 'мир']],
    ['한국어 문서', ['한국어', '문서']],
    ['e\u0301t\u00e9', ['e\u0301t\u00e9']],
  ])('%j', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it('gives one token per Han, kana and Thai character (marks stay with theirs)', () => {
    expect(tokenize('近重复文档')).toEqual(['近', '重', '复', '文', '档']);
    expect(tokenize('カタカナー')).toEqual(['カ', 'タ', 'カ', 'ナ', 'ー']);
    expect(tokenize('กินข้าว')).toEqual(['กิ', 'น', 'ข้', 'า', 'ว']);
    expect(tokenize('abc中文def')).toEqual(['abc', '中', '文', 'def']);
  });

  it('handles astral characters and lone surrogates', () => {
    expect(tokenize('𠀀𠀁 x😀y')).toEqual(['𠀀', '𠀁', 'x', 'y']);
    expect(tokenize('a\uD800b\uDC00c\uD800')).toEqual(['a', 'b', 'c']);
  });

  it('splits paragraphs at blank lines and U+2029, not at single line breaks', () => {
    expect(tokenizeParagraphs('one two\nthree\n\nfour five\r\n\r\nsix\u2029seven\n \n')).toEqual([
      ['one', 'two', 'three'], ['four', 'five'], ['six'], ['seven'],
    ]);
    expect(tokenizeParagraphs('\n\n\n')).toEqual([]);
    expect(tokenizeParagraphs('\n\nword')).toEqual([['word']]);
  });
});

describe('character classes (the tokeniser’s table of every BMP code unit)', () => {
  // The rule, one character at a time, as the module states it.
  const classify = (ch: string): 'mark' | 'separator' | 'solo' | 'word' => {
    if (/^\p{M}$/u.test(ch)) return 'mark';
    if (!/^[\p{L}\p{N}]$/u.test(ch)) return 'separator';
    return /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30FC\u3005\u3007]$/u.test(ch) ? 'solo' : 'word';
  };
  /** The class tokenize shows: a mark joins a word and is dropped alone; a solo character is its own token. */
  const observed = (ch: string): string => {
    if (tokenize(`x${ch}x`).length === 1) {
      if (ch === 'x' || tokenize(`${ch}${ch}`).length === 1) return 'word';
      return tokenize(`${ch}${ch}`).length === 2 ? 'solo' : 'mark';
    }
    return tokenize(` ${ch} `).length === 1 ? 'solo' : 'separator';
  };

  it('gives every BMP character (surrogates aside) the class the rule gives it', () => {
    const wrong: string[] = [];
    for (let unit = 0; unit < 0x10000; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue;
      const ch = String.fromCharCode(unit);
      if (observed(ch) !== classify(ch)) wrong.push(`U+${unit.toString(16).padStart(4, '0')} ${classify(ch)} → ${observed(ch)}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
