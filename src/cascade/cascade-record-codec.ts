/**
 * A page's cascade record as bytes: made where the page is analysed (a worker thread) and sent as
 * one buffer; decoded on the committing thread with no copy (typed-array views on the bytes) and the
 * stems and terms only when a stage reads them; stored as a prefix of the same bytes (the
 * `cascade_records` table, SQLite and PostgreSQL).
 *
 * Layout, 32-bit words in the machine's byte order (as bucket_counts; neardup runs on little-endian
 * machines): header of 8 words — version | tag flag << 8, language (3 Latin-1 bytes), words,
 * shingle count, tag-sketch count, stem bytes, paragraph count, stored length (bytes of the prefix);
 * then the word shingles, the grammar sketch, the stems (UTF-8, joined by '\n', padded to 4 bytes) —
 * the stored prefix ends here: a stored page is compared through its page-level arrays only — then
 * per paragraph (words, shingle count, term count), the paragraphs' shingles and their terms.
 * A page's terms are the hashes of its stems (termHash), so they are not stored.
 */
import { CascadeModelError } from '../errors.js';
import { SKETCH_SIZE, packedRecordOf, termHash, type CascadeRecord, type PackedRecord, type ParagraphProfile } from './cascade-record.js';
import { sortedDistinctInPlace } from './shingle-sketch.js';

const VERSION = 2;
const HEADER_WORDS = 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The record's bytes; `withParagraphs`: the paragraph section too (the page being judged needs it). */
export function encodeCascadeRecord(record: CascadeRecord, withParagraphs = true): Uint8Array {
  const packedRecord = packedRecordOf(record);
  // The stems' UTF-8: as the record made it, else written straight into the record's words.
  const utf8 = packedRecord?.stemUtf8 ?? null;
  const joined = utf8 === null ? record.stems.join('\n') : '';
  const stemBytes = utf8 === null ? Buffer.byteLength(joined, 'utf8') : utf8.length;
  const tag = record.tagSketch ?? new Uint32Array(0);
  const stemWords = Math.ceil(stemBytes / 4);
  const storedWords = HEADER_WORDS + record.shingles.length + tag.length + stemWords;
  const packed = withParagraphs ? packedRecord : undefined;
  const paragraphs = !withParagraphs ? [] : packed === undefined ? record.paragraphs : null;
  const paragraphCount = packed !== undefined ? packed.triples.length / 3 : paragraphs!.length;
  const words = new Uint32Array(storedWords + paragraphSectionWords(packed, paragraphs));
  const language = record.language.padEnd(3, ' ');
  words[0] = VERSION | (record.tagSketch === null ? 0 : 1 << 8);
  words[1] = (language.charCodeAt(0) & 0xff) | ((language.charCodeAt(1) & 0xff) << 8) | ((language.charCodeAt(2) & 0xff) << 16);
  words[2] = record.words;
  words[3] = record.shingles.length;
  words[4] = tag.length;
  words[5] = stemBytes;
  words[6] = paragraphCount;
  words[7] = 4 * storedWords;
  let at = HEADER_WORDS;
  words.set(record.shingles, at);
  at += record.shingles.length;
  words.set(tag, at);
  at += tag.length;
  const stemArea = new Uint8Array(words.buffer, 4 * at, stemBytes);
  if (utf8 === null) encoder.encodeInto(joined, stemArea);
  else stemArea.set(utf8);
  at += stemWords;
  if (packed !== undefined) {
    // cascadeRecordOfTable's section is in this very layout.
    for (const part of [packed.triples, packed.shingles, packed.terms]) {
      words.set(part, at);
      at += part.length;
    }
  } else {
    writeParagraphs(paragraphs!, words, at);
  }
  return new Uint8Array(words.buffer);
}

/** Words of the paragraph section. */
function paragraphSectionWords(packed: PackedRecord | undefined, paragraphs: readonly ParagraphProfile[] | null): number {
  if (packed !== undefined) return packed.triples.length + packed.shingles.length + packed.terms.length;
  let total = 3 * paragraphs!.length;
  for (const p of paragraphs!) total += p.shingles.length + p.terms.length;
  return total;
}

/** The paragraph section of profiles, from words[at]. */
function writeParagraphs(paragraphs: readonly ParagraphProfile[], words: Uint32Array, at: number): void {
  for (const p of paragraphs) {
    words[at++] = p.words;
    words[at++] = p.shingles.length;
    words[at++] = p.terms.length;
  }
  for (const p of paragraphs) {
    words.set(p.shingles, at);
    at += p.shingles.length;
  }
  for (const p of paragraphs) {
    words.set(p.terms, at);
    at += p.terms.length;
  }
}

/** The stored prefix of encoded bytes (no paragraph section). */
export function storedPart(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(0, wordsOf(bytes)[7]!);
}

/** The bytes as 32-bit words: a view when they are 4-byte aligned, else a copy. */
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (bytes.length < 4 * HEADER_WORDS || bytes.length % 4 !== 0) {
    throw new CascadeModelError(`Expected a cascade record of at least ${4 * HEADER_WORDS} bytes, a multiple of 4, got ${bytes.length}`);
  }
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  if ((words[0]! & 0xff) !== VERSION) throw new CascadeModelError(`Expected a cascade record of version ${VERSION}, got version ${words[0]! & 0xff}`);
  return words;
}

function paragraphsOf(words: Uint32Array, at: number, count: number): ParagraphProfile[] {
  const out: ParagraphProfile[] = [];
  let shingleAt = at + 3 * count;
  let total = 0;
  for (let p = 0; p < count; p++) total += words[at + 3 * p + 1]!;
  let termAt = shingleAt + total;
  for (let p = 0; p < count; p++) {
    const n = words[at + 3 * p + 1]!;
    const t = words[at + 3 * p + 2]!;
    out.push({ words: words[at + 3 * p]!, shingles: words.subarray(shingleAt, shingleAt + n), terms: words.subarray(termAt, termAt + t) });
    shingleAt += n;
    termAt += t;
  }
  return out;
}

/** The term hashes of stems, in their order (an indexed loop: Uint32Array.from walks an iterator). */
function termsOf(stems: readonly string[]): Uint32Array {
  const out = new Uint32Array(stems.length);
  for (let i = 0; i < stems.length; i++) out[i] = termHash(stems[i]!);
  return out;
}

/** The record of encodeCascadeRecord's bytes (paragraphs empty for a stored prefix). Views share the bytes. */
export function decodeCascadeRecord(bytes: Uint8Array): CascadeRecord {
  const words = wordsOf(bytes);
  const shingleCount = words[3]!;
  const tagCount = words[4]!;
  const stemBytes = words[5]!;
  let at = HEADER_WORDS;
  const shingles = words.subarray(at, at + shingleCount);
  at += shingleCount;
  const tag = words.subarray(at, at + tagCount);
  at += tagCount;
  const stemStart = 4 * at;
  at += Math.ceil(stemBytes / 4);
  const paragraphs = words[6]! > 0 && 4 * at < words.byteLength ? paragraphsOf(words, at, words[6]!) : [];
  const lang = words[1]!;
  let stems: string[] | null = null;
  let terms: Uint32Array | null = null;
  const stemsOf = (): string[] => {
    if (stems === null) {
      const text = decoder.decode(new Uint8Array(words.buffer, words.byteOffset + stemStart, stemBytes));
      stems = text === '' ? [] : text.split('\n');
    }
    return stems;
  };
  return {
    language: String.fromCharCode(lang & 0xff, (lang >>> 8) & 0xff, (lang >>> 16) & 0xff).trimEnd(),
    words: words[2]!,
    get stems() {
      return stemsOf();
    },
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    get terms() {
      terms ??= sortedDistinctInPlace(termsOf(stemsOf()));
      return terms;
    },
    tagSketch: (words[0]! & (1 << 8)) !== 0 ? tag : null,
    paragraphs,
  };
}

/** Only the hashes a store indexes (grammar sketch, word shingles). */
export function decodeCascadeHashes(bytes: Uint8Array): Pick<CascadeRecord, 'tagSketch' | 'shingles'> {
  const { tagSketch, shingles } = decodeCascadeRecord(bytes);
  return { tagSketch, shingles };
}
