import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { charsetFromContentType, charsetFromMeta, decodeHtmlBytes, decodeTextBytes } from '../../src/input/decode-html-bytes.js';

const html = '<html><head><title>Café</title></head><body><p>Привет — déjà vu</p></body></html>';

describe('decodeHtmlBytes', () => {
  it.each([
    ['a UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(html, 'utf8')]), null, 'utf-8'],
    ['a UTF-16LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(html, 'utf16le')]), null, 'utf-16le'],
    ['plain valid UTF-8', Buffer.from(html, 'utf8'), null, 'utf-8'],
    ['a header charset', Buffer.from(html, 'utf8'), 'text/html; charset="UTF-8"', 'utf-8'],
  ])('decodes with %s', (_name, bytes, contentType, charset) => {
    expect(decodeHtmlBytes(bytes, contentType)).toEqual({ html, charset });
  });

  it('prefers the header over <meta>, and <meta> over guessing', () => {
    const latin = '<html><head><meta charset="iso-8859-1"></head><body>déjà</body></html>';
    const bytes = iconv.encode(latin, 'windows-1252');
    expect(decodeHtmlBytes(bytes)).toEqual({ html: latin, charset: 'windows-1252' });
    const cyr = '<html><head><meta charset="utf-8"></head><body>Привет</body></html>';
    expect(decodeHtmlBytes(iconv.encode(cyr, 'koi8-r'), 'text/html; charset=koi8-r').html).toBe(cyr);
  });

  it('falls through an unknown charset label to the next source', () => {
    expect(decodeHtmlBytes(Buffer.from(html, 'utf8'), 'text/html; charset=x-no-such-charset')).toEqual({ html, charset: 'utf-8' });
  });

  it('guesses an undeclared legacy encoding', () => {
    const text = 'Москва — столица России, крупнейший по численности населения город страны. Город расположен на реке Москве.';
    const { html: out } = decodeHtmlBytes(iconv.encode(`<p>${text}</p>`, 'windows-1251'));
    expect(out).toBe(`<p>${text}</p>`);
  });

  it('reads charset labels from headers and meta tags', () => {
    expect(charsetFromContentType('text/html;charset=Shift_JIS')).toBe('shift_jis');
    expect(charsetFromContentType('text/html')).toBeNull();
    expect(charsetFromMeta(Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'))).toBe('windows-1251');
    expect(charsetFromMeta(Buffer.from('<p>no meta</p>'))).toBeNull();
  });

  it('decodes text files without looking for <meta>', () => {
    const text = 'A note about <meta charset="koi8-r"> tags.';
    expect(decodeTextBytes(Buffer.from(text, 'utf8'))).toEqual({ html: text, charset: 'utf-8' });
  });
});
