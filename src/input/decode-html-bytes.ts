/**
 * Bytes of a page → string, with the charset taken (in this order) from a byte-order mark, the
 * HTTP Content-Type header, a `<meta charset>` / `<meta http-equiv>` in the first bytes, strict
 * UTF-8 if the bytes are valid UTF-8, and finally chardet's guess. Legacy encodings
 * (windows-1251, Shift_JIS, ...) are decoded with iconv-lite.
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';

/** The decoded page and the charset used. */
export interface DecodedHtml {
  readonly html: string;
  /** Lower-case charset label as used (`utf-8`, `windows-1251`, ...). */
  readonly charset: string;
}

/** How far into a page to look for a `<meta>` charset (the HTML standard says 1024 bytes). */
const metaSniffBytes = 4096;

/** The charset parameter of a Content-Type header value, lower case, or null. */
export function charsetFromContentType(contentType: string | null | undefined): string | null {
  if (contentType === null || contentType === undefined) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;]+))/i.exec(contentType);
  const label = match?.[1] ?? match?.[2] ?? match?.[3];
  return label === undefined || label.trim() === '' ? null : label.trim().toLowerCase();
}

/** A charset declared by a `<meta>` tag near the start of the page, or null. */
export function charsetFromMeta(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, metaSniffBytes)).toString('latin1');
  const direct = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return direct === null ? null : direct[1]!.toLowerCase();
}

/** Maps labels the way browsers do (the WHATWG Encoding standard treats latin1/ascii as windows-1252). */
function normalizeLabel(label: string): string {
  const l = label.toLowerCase();
  if (l === 'iso-8859-1' || l === 'latin1' || l === 'us-ascii' || l === 'ascii' || l === 'iso8859-1') return 'windows-1252';
  if (l === 'utf8') return 'utf-8';
  // A page that declares utf-16 in <meta> but arrived as bytes without a BOM is really ASCII-compatible.
  if (l === 'utf-16' || l === 'utf-16le' || l === 'utf-16be') return 'utf-8';
  return l;
}

function bomCharset(bytes: Uint8Array): { charset: string; skip: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', skip: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  return null;
}

function decodeWith(bytes: Uint8Array, charset: string): string | null {
  if (charset === 'utf-8') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!iconv.encodingExists(charset)) return null;
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** How far into a body to look for binary bytes (the WHATWG MIME Sniffing standard reads 512). */
const binarySniffBytes = 512;

/**
 * Whether bytes are binary data rather than text: more than 1 in 64 of the first 512 bytes are
 * binary data bytes as the WHATWG MIME Sniffing standard defines them (0x00–0x08, 0x0B,
 * 0x0E–0x1A, 0x1C–0x1F; random bytes have ~1 in 10). The standard calls one such byte enough;
 * a share lets through a real page with a stray NUL or ESC in its title. A UTF-16 or UTF-8
 * byte-order mark makes it text. Servers label images, archives and executables `text/html`
 * often enough; decoding them gives a "document" of random letters that would be stored.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bomCharset(bytes) !== null) return false;
  const n = Math.min(bytes.length, binarySniffBytes);
  let binary = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) binary++;
  }
  return binary > 1 && binary * 64 > n;
}

/**
 * Decodes page bytes. An unknown or unsupported declared charset falls through to the next
 * source instead of failing; invalid UTF-8 without any declaration is guessed by chardet.
 */
export function decodeHtmlBytes(bytes: Uint8Array, contentType?: string | null): DecodedHtml {
  const bom = bomCharset(bytes);
  if (bom !== null) {
    const body = bytes.subarray(bom.skip);
    return { html: decodeWith(body, bom.charset) ?? '', charset: bom.charset };
  }
  for (const declared of [charsetFromContentType(contentType), charsetFromMeta(bytes)]) {
    if (declared === null) continue;
    const charset = normalizeLabel(declared);
    const html = decodeWith(bytes, charset);
    if (html !== null) return { html, charset };
  }
  try {
    return { html: strictUtf8.decode(bytes), charset: 'utf-8' };
  } catch {
    const guess = chardet.detect(bytes);
    const charset = guess === null ? 'windows-1252' : normalizeLabel(guess);
    return { html: decodeWith(bytes, charset) ?? decodeWith(bytes, 'windows-1252')!, charset };
  }
}

/** Decodes a plain-text file: BOM, else strict UTF-8, else chardet's guess (no `<meta>` sniffing). */
export function decodeTextBytes(bytes: Uint8Array): DecodedHtml {
  const bom = bomCharset(bytes);
  if (bom !== null) return { html: decodeWith(bytes.subarray(bom.skip), bom.charset) ?? '', charset: bom.charset };
  try {
    return { html: strictUtf8.decode(bytes), charset: 'utf-8' };
  } catch {
    const guess = chardet.detect(bytes);
    const charset = guess === null ? 'windows-1252' : normalizeLabel(guess);
    return { html: decodeWith(bytes, charset) ?? decodeWith(bytes, 'windows-1252')!, charset };
  }
}
