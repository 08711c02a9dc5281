import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { fingerprintToHex, hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { analyzeHtml } from '../../src/analyze/analyze-html.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { NORMALIZER_VERSION } from '../../src/text/normalizer-version.js';
import { StemCache } from '../../src/text/stem-cache.js';
import type { FingerprintParams, HashName } from '../../src/types.js';
import { loadDevTruth } from '../helpers/dev-texts.js';
import { lcgRandom } from '../helpers/seeded-random.js';

const params = fingerprintParamsFrom(defaultConfig().fingerprint);
const withHash = (hash: HashName): FingerprintParams => ({ ...params, hash });
const devTexts = Object.values(loadDevTruth()).map((t) => t.articleBody);
const paragraphsOf = (t: string) => t.split(/\n\s*\n/);
const longTexts = devTexts.filter((t) => paragraphsOf(t).length >= 12 && t.length >= 4000);

function distance(a: string, b: string, p: FingerprintParams = params): number {
  return hammingDistance(analyzeText(a, p).fingerprint!, analyzeText(b, p).fingerprint!);
}

const samples: Record<string, string> = {
  eng: 'Near-duplicate detection finds web pages whose main text is almost the same, such as mirrors, syndicated articles and copies with a changed template.',
  rus: 'Поиск почти одинаковых документов находит веб-страницы, основной текст которых почти совпадает: зеркала, перепечатки статей и копии с изменённым шаблоном.',
  spa: 'La detección de documentos casi duplicados encuentra páginas web cuyo texto principal es casi el mismo, como espejos, artículos sindicados y copias con otra plantilla.',
  cat: 'La detecció de documents gairebé duplicats troba pàgines web amb el mateix text principal, com ara miralls, articles sindicats i còpies amb una altra plantilla.',
  fra: 'La détection de documents presque dupliqués trouve les pages web dont le texte principal est presque le même, comme les miroirs, les articles syndiqués et les copies.',
  deu: 'Die Erkennung von Beinahe-Duplikaten findet Webseiten, deren Haupttext fast gleich ist, etwa Spiegelseiten, übernommene Artikel und Kopien mit anderer Vorlage.',
  cmn: '近似重复文档检测可以找到主要文本几乎相同的网页，例如镜像网站、转载文章以及更换了模板的副本。',
  jpn: 'ほぼ重複した文書の検出は、ミラーサイトや転載記事のように本文がほとんど同じウェブページを見つけます。',
};

describe('analyzeText: pinned values (shingles of 3, unit weighting, normaliser 1)', () => {
  // Pinned so that any change to normalisation, stop words, stems, shingles or hashing shows up;
  // such a change must bump NORMALIZER_VERSION.
  it.each([
    ['eng', 'rabin', 'b12e675432286edd', 24, 7],
    ['eng', 'murmur', 'd685254fa3dc7295', 24, 7],
    ['rus', 'rabin', '34c15d542f276ba5', 20, 13],
    ['rus', 'murmur', '24c2a1d31d60434c', 20, 13],
    ['spa', 'rabin', '7408f133f431eb5f', 25, 11],
    ['spa', 'murmur', '3df5250f72b90220', 25, 11],
    ['cat', 'rabin', '0c62840954802a10', 25, 12],
    ['cat', 'murmur', '61875fb8a1242e10', 25, 12],
    ['fra', 'rabin', '0757b950c452e520', 27, 12],
    ['fra', 'murmur', 'e9209944b246221f', 27, 12],
    ['deu', 'rabin', 'cd0ac24011f044b2', 21, 10],
    ['deu', 'murmur', '5e18b8eed8266100', 21, 10],
    ['cmn', 'rabin', '7192a4432965e7f6', 43, 24],
    ['cmn', 'murmur', '94af30ae79914218', 43, 24],
    ['jpn', 'rabin', 'dac066dfcb89d65f', 48, 33],
    ['jpn', 'murmur', '1b199499c2db9a82', 48, 33],
  ] as const)('%s with %s', (language, hash, hex, tokens, features) => {
    const analysis = analyzeText(samples[language]!, withHash(hash));
    expect(analysis.language).toBe(language);
    expect(fingerprintToHex(analysis.fingerprint!)).toBe(hex);
    expect(analysis.tokenCount).toBe(tokens);
    expect(analysis.featureCount).toBe(features);
    expect(analysis.textHash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('pins the normaliser version', () => {
    expect(params.normalizerVersion).toBe(NORMALIZER_VERSION);
    expect(NORMALIZER_VERSION).toBe(3);
  });
});

describe('analyzeText: copies', () => {
  it('a homoglyph copy (Cyrillic а, е, о, р, с in Latin words) has distance 0 and the same text hash', () => {
    const substitute: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', A: 'А', E: 'Е', O: 'О', P: 'Р', C: 'С' };
    for (const [i, text] of devTexts.slice(0, 12).entries()) {
      const rand = lcgRandom(i + 1);
      const copy = text.replace(/[aeopcAEOPC]/g, (ch) => (rand() < 0.6 ? substitute[ch]! : ch));
      expect(copy).not.toBe(text);
      for (const hash of ['rabin', 'murmur'] as const) {
        const a = analyzeText(text, withHash(hash));
        const b = analyzeText(copy, withHash(hash));
        expect(hammingDistance(a.fingerprint!, b.fingerprint!)).toBe(0);
        expect(b.textHash).toBe(a.textHash);
      }
    }
  });

  it('a Latin-letter copy of a Russian text has distance 0', () => {
    const text = samples.rus!;
    const copy = text.replace(/[аеорсх]/g, (ch) => ({ а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x' })[ch]!);
    expect(distance(text, copy)).toBe(0);
  });

  it('case, spacing, punctuation and compatibility forms do not matter', () => {
    // Two paragraphs: in a text with a blank line a single line break is a soft wrap.
    const text = `${samples.eng!}\n\n${samples.eng!}`;
    const reformatted = `  ${text.toUpperCase().replace(/ /g, '\n\t ').replace(/,/g, ' ;')}  `;
    expect(distance(text, reformatted)).toBe(0);
    expect(analyzeText(reformatted, params).textHash).toBe(analyzeText(text, params).textHash);
  });

  it('in a text without blank lines each line is a paragraph, as if blank lines separated them (issue 25)', () => {
    const lines = devTexts.slice(0, 6).map((t) => t.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => p !== '').join('\n'));
    for (const text of lines) {
      const blank = text.replace(/\n/g, '\n\n');
      expect(analyzeText(text, params).fingerprint).toEqual(analyzeText(blank, params).fingerprint);
      expect(analyzeText(text.replace(/\n/g, '\r\n'), params).fingerprint).toEqual(analyzeText(blank, params).fingerprint);
    }
    // Shingles do not cross a line's end: the paragraphs' features, not the run-on text's.
    const text = lines[0]!;
    expect(analyzeText(text, params).featureCount).not.toBe(analyzeText(text.replace(/\n/g, ' '), params).featureCount);
    // Once the text has a blank line, single line breaks are soft wraps again.
    const wrapped = `${text.replace(/\n/g, ' ').replace(/ /g, '\n')}\n\nmore words here and there`;
    expect(analyzeText(wrapped, params).fingerprint).toEqual(analyzeText(`${text.replace(/\n/g, ' ')}\n\nmore words here and there`, params).fingerprint);
  });

  it('different texts have different text hashes and distant fingerprints', () => {
    const a = analyzeText(devTexts[0]!, params);
    const b = analyzeText(devTexts[1]!, params);
    expect(a.textHash).not.toBe(b.textHash);
    expect(hammingDistance(a.fingerprint!, b.fingerprint!)).toBeGreaterThan(params.distance);
  });
});

describe('analyzeText: properties', () => {
  it('identical text has distance 0', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.constantFrom<HashName>('rabin', 'murmur'), (text, hash) => {
      const a = analyzeText(text, withHash(hash));
      const b = analyzeText(text, withHash(hash));
      expect(b).toEqual(a);
    }), { numRuns: 200 });
  });

  it('distance grows, on average, with the fraction of words edited', () => {
    const fractions = [0.02, 0.1, 0.3, 0.6];
    const texts = devTexts.filter((t) => t.length >= 2000).slice(0, 20);
    const seeds = fc.sample(fc.integer({ min: 1, max: 2 ** 31 }), texts.length);
    const means = fractions.map((fraction) => {
      let sum = 0;
      texts.forEach((text, i) => {
        const rand = lcgRandom(seeds[i]!);
        const edited = text.split(/(\s+)/).map((w) => (w.trim() !== '' && rand() < fraction ? `zq${Math.floor(rand() * 1e6)}` : w)).join('');
        sum += distance(text, edited);
      });
      return sum / texts.length;
    });
    for (let i = 1; i < means.length; i++) expect(means[i]!, `means ${means.join(', ')}`).toBeGreaterThan(means[i - 1]!);
  });

  it('swapping two paragraphs of a long text keeps its language and stays within distance 3', () => {
    expect(longTexts.length).toBeGreaterThanOrEqual(5);
    fc.assert(fc.property(fc.nat(longTexts.length - 1), fc.nat(1000), fc.nat(1000), (t, x, y) => {
      const paragraphs = paragraphsOf(longTexts[t]!);
      const i = x % paragraphs.length;
      const j = y % paragraphs.length;
      [paragraphs[i], paragraphs[j]] = [paragraphs[j]!, paragraphs[i]!];
      const swapped = paragraphs.join('\n\n');
      // The language is decided on a sample spread over the whole text (spreadTokenSample), so
      // moving a paragraph never changes it (on the first 256 characters it flipped Malay/Indonesian).
      expect(analyzeText(swapped, params).language).toBe(analyzeText(longTexts[t]!, params).language);
      expect(distance(longTexts[t]!, swapped)).toBeLessThanOrEqual(3);
    }), { numRuns: 40 });
  });
});

describe('analyzeText: edge cases', () => {
  it.each([
    ['empty', ''],
    ['whitespace only', ' \n\t\u00a0\u3000 '],
    ['punctuation only', '... !!! ---'],
    ['lone surrogates only', '\uD800\uDC00'.slice(0, 1) + ' ' + '\uDFFF'],
  ])('%s text has no fingerprint (never matches other empty pages)', (_name, text) => {
    const analysis = analyzeText(text, params);
    expect(analysis.fingerprint).toBeNull();
    expect(analysis.featureCount).toBe(0);
    expect(analysis.tokenCount).toBe(0);
    expect(analysis.language).toBe('und');
  });

  it('one word gives a fingerprint from that word', () => {
    const analysis = analyzeText('Duplicates', params);
    expect(analysis.fingerprint).not.toBeNull();
    expect(analysis.featureCount).toBe(1);
    expect(analysis.tokenCount).toBe(1);
  });

  it('text with invalid surrogates fingerprints like the text with U+FFFD', () => {
    const text = `${samples.eng} \uD800broken\uDC00 pairs`;
    const a = analyzeText(text, params);
    expect(a.fingerprint).not.toBeNull();
    expect(a).toEqual(analyzeText(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'), params));
  });

  it('handles a 10 MB text', () => {
    let text = '';
    for (let i = 0; text.length < 10_000_000; i++) text += `${devTexts[i % devTexts.length]}\n\n`;
    text += '\uD800';
    const analysis = analyzeText(text, params);
    expect(analysis.fingerprint).not.toBeNull();
    expect(analysis.tokenCount).toBeGreaterThan(1_000_000);
    expect(analysis.featureCount).toBeGreaterThan(500_000);
  });

  it('gives the same result with a StemCache', () => {
    const cache = new StemCache();
    for (const text of devTexts.slice(0, 10)) expect(analyzeText(text, params, { stemCache: cache })).toEqual(analyzeText(text, params));
  });

  it('works out a token once per thread: a text met again adds nothing to the StemCache', () => {
    const cache = new StemCache();
    analyzeText(devTexts[0]!, params, { stemCache: cache });
    const size = cache.size;
    expect(size).toBeGreaterThan(20);
    expect(cache.tokenMemo(analyzeText(devTexts[0]!, params).language).size).toBe(size);
    analyzeText(devTexts[0]!.toUpperCase(), params, { stemCache: cache });
    expect(cache.size).toBe(size);
  });

  it.each(['murmur', 'rabin'] as const)('gives the same result with a StemCache met texts and languages again and started over mid-text (%s)', (hash) => {
    // maxEntries below one text's distinct tokens: the memo starts over within texts too.
    const cache = new StemCache({ maxEntries: 150 });
    const texts = [...devTexts.slice(0, 6), ...Object.values(samples), ...devTexts.slice(0, 6)];
    const seen: string[][] = [];
    for (const text of texts) {
      expect(analyzeText(text, withHash(hash), { stemCache: cache, sketchSize: 16, onTokens: (_n, table, stems) => {
        // Every content token's stem, as the cascade reads them.
        seen.push(Array.from({ length: table.distinct }, (_, id) => (stems.stop[id] === 1 ? '' : stems.stems[id]!)));
      } })).toEqual(analyzeText(text, withHash(hash), { sketchSize: 16 }));
    }
    const fresh: string[][] = [];
    for (const text of texts) analyzeText(text, withHash(hash), { onTokens: (_n, table, stems) => {
      fresh.push(Array.from({ length: table.distinct }, (_, id) => (stems.stop[id] === 1 ? '' : stems.stems[id]!)));
    } });
    expect(seen).toEqual(fresh);
    expect(cache.size).toBeLessThanOrEqual(150);
  });

  it.each([
    [{ shingleSize: 0 }, /shingleSize/],
    [{ shingleSize: 2.5 }, /shingleSize/],
    [{ hash: 'xxh64' }, /hash/],
    [{ weighting: 'idf' }, /weighting/],
    [{ normalizerVersion: 0 }, /normalizerVersion/],
  ])('rejects params %j', (bad, message) => {
    expect(() => analyzeText('some text', { ...params, ...bad } as FingerprintParams)).toThrow(message);
  });

  it('rejects a non-string text', () => {
    expect(() => analyzeText(null as unknown as string, params)).toThrow(/Expected `text` to be a string/);
  });
});

describe('analyzeHtml', () => {
  it('fingerprints the main text of a page', () => {
    const body = samples.eng!;
    const html = `<!doctype html><html lang="en"><head><title>T</title></head><body><nav>Home About Contact</nav>`
      + `<article><h1>Near duplicates</h1><p>${body}</p><p>${samples.eng!.split(' ').reverse().join(' ')}</p></article>`
      + `<footer>Copyright notice</footer></body></html>`;
    const { page, analysis } = analyzeHtml(html, params, 'https://example.com/a');
    expect(page.text).toContain('Near-duplicate detection');
    expect(analysis).toEqual(analyzeText(page.text, params));
    expect(analysis.language).toBe('eng');
  });
});
