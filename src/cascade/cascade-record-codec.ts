/**
 * A page's cascade record as bytes: made where the page is analysed (a worker thread) and sent as
 * one buffer; decoded on the committing thread with no copy (typed-array views on the bytes) and the
 * stems only when a stage reads them; stored as a prefix of the same bytes (the `cascade_records`
 * table, SQLite and PostgreSQL).
 *
 * Layout (version 3), 32-bit words in the machine's byte order (as bucket_counts; neardup runs on
 * little-endian machines): header of 6 words — version | tag flag << 8, language (3 Latin-1 bytes),
 * words, shingle count, tag-sketch count, term count; then the sampled word shingles, the grammar
 * sketch, the page's 16-bit terms (padded to 4 bytes) — the stored prefix ends here: a stored page
 * is compared through these page-level arrays only (~0.5–1 KB a page) — then, for the page being
 * judged only: stem bytes and paragraph count (2 words), the stems (UTF-8, joined by '\n', padded to
 * 4 bytes), per paragraph (words, shingle count, term count), the paragraphs' shingles and terms.
 *
 * Version 2 records (stored by earlier releases: every shingle, a 256-value grammar sketch, the
 * stems instead of terms) are read as version 3 would have made them: shingles sampled, the
 * sketch's 64 smallest values, the stems' terms.
 */
import { CascadeModelError } from '../errors.js';
import { SKETCH_SIZE, TAG_SKETCH_SIZE, isSampledShingle, packedRecordOf, termHash, type CascadeRecord, type PackedRecord, type ParagraphProfile } from './cascade-record.js';
import { sortedDistinctInPlace } from './shingle-sketch.js';

const VERSION = 3;
const HEADER_WORDS = 6;
/** The transient section's own header: stem bytes, paragraph count. */
const TRANSIENT_HEADER_WORDS = 2;
const V2 = 2;
const V2_HEADER_WORDS = 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Words that `count` 16-bit terms take. */
function termWords(count: number): number {
  return Math.ceil(count / 2);
}

/** The record's bytes; `withParagraphs`: the stems and paragraph section too (the page being judged needs them). */
export function encodeCascadeRecord(record: CascadeRecord, withParagraphs = true): Uint8Array {
  const packedRecord = packedRecordOf(record);
  const tag = record.tagSketch ?? new Uint32Array(0);
  const terms = record.terms;
  const storedWords = HEADER_WORDS + record.shingles.length + tag.length + termWords(terms.length);
  // The stems' UTF-8: as the record made it, else encoded here.
  const utf8 = !withParagraphs ? null : packedRecord?.stemUtf8 ?? null;
  const joined = !withParagraphs || utf8 !== null ? '' : record.stems.join('\n');
  const stemBytes = utf8 === null ? Buffer.byteLength(joined, 'utf8') : utf8.length;
  const packed = withParagraphs ? packedRecord : undefined;
  const paragraphs = !withParagraphs ? [] : packed === undefined ? record.paragraphs : null;
  const paragraphCount = packed !== undefined ? packed.triples.length / 3 : paragraphs!.length;
  const transientWords = withParagraphs ? TRANSIENT_HEADER_WORDS + Math.ceil(stemBytes / 4) + paragraphSectionWords(packed, paragraphs) : 0;
  const words = new Uint32Array(storedWords + transientWords);
  const language = record.language.padEnd(3, ' ');
  words[0] = VERSION | (record.tagSketch === null ? 0 : 1 << 8);
  words[1] = (language.charCodeAt(0) & 0xff) | ((language.charCodeAt(1) & 0xff) << 8) | ((language.charCodeAt(2) & 0xff) << 16);
  words[2] = record.words;
  words[3] = record.shingles.length;
  words[4] = tag.length;
  words[5] = terms.length;
  let at = HEADER_WORDS;
  words.set(record.shingles, at);
  at += record.shingles.length;
  words.set(tag, at);
  at += tag.length;
  new Uint16Array(words.buffer, 4 * at, terms.length).set(terms);
  at += termWords(terms.length);
  if (!withParagraphs) return new Uint8Array(words.buffer);
  words[at++] = stemBytes;
  words[at++] = paragraphCount;
  const stemArea = new Uint8Array(words.buffer, 4 * at, stemBytes);
  if (utf8 === null) encoder.encodeInto(joined, stemArea);
  else stemArea.set(utf8);
  at += Math.ceil(stemBytes / 4);
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

/** Words of the stored prefix of a version-3 record. */
function storedWordsOf(words: Uint32Array): number {
  return HEADER_WORDS + words[3]! + words[4]! + termWords(words[5]!);
}

/** The stored prefix of encoded bytes (no stems, no paragraph section). */
export function storedPart(bytes: Uint8Array): Uint8Array {
  const words = wordsOf(bytes);
  return bytes.subarray(0, (words[0]! & 0xff) === V2 ? words[7]! : 4 * storedWordsOf(words));
}

/** The bytes as 32-bit words: a view when they are 4-byte aligned, else a copy. */
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (bytes.length < 4 * HEADER_WORDS || bytes.length % 4 !== 0) {
    throw new CascadeModelError(`Expected a cascade record of at least ${4 * HEADER_WORDS} bytes, a multiple of 4, got ${bytes.length}`);
  }
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  const version = words[0]! & 0xff;
  if (version !== VERSION && version !== V2) throw new CascadeModelError(`Expected a cascade record of version ${VERSION} or ${V2}, got version ${version}`);
  if (version === V2 && words.length < V2_HEADER_WORDS) throw new CascadeModelError(`Expected a version ${V2} cascade record of at least ${4 * V2_HEADER_WORDS} bytes, got ${bytes.length}`);
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

function languageOf(words: Uint32Array): string {
  const lang = words[1]!;
  return String.fromCharCode(lang & 0xff, (lang >>> 8) & 0xff, (lang >>> 16) & 0xff).trimEnd();
}

/** The stems of UTF-8 bytes joined by '\n'. */
function stemsOfUtf8(bytes: Uint8Array): string[] {
  const text = decoder.decode(bytes);
  return text === '' ? [] : text.split('\n');
}

/**
 * The record of encodeCascadeRecord's bytes (stems and paragraphs empty for a stored prefix). Views
 * share the bytes; the stems are decoded when first read.
 */
export function decodeCascadeRecord(bytes: Uint8Array): CascadeRecord {
  const words = wordsOf(bytes);
  if ((words[0]! & 0xff) === V2) return decodeVersion2(words);
  const shingleCount = words[3]!;
  const tagCount = words[4]!;
  const termCount = words[5]!;
  let at = HEADER_WORDS;
  const shingles = words.subarray(at, at + shingleCount);
  at += shingleCount;
  const tag = words.subarray(at, at + tagCount);
  at += tagCount;
  // Widened once: the stages compare terms as 32-bit values.
  const terms = Uint32Array.from(new Uint16Array(words.buffer, words.byteOffset + 4 * at, termCount));
  at += termWords(termCount);
  let stems: string[] = [];
  let paragraphs: ParagraphProfile[] = [];
  let stemBytes: Uint8Array | null = null;
  if (at + TRANSIENT_HEADER_WORDS <= words.length) {
    const stemByteCount = words[at]!;
    const paragraphCount = words[at + 1]!;
    at += TRANSIENT_HEADER_WORDS;
    stemBytes = new Uint8Array(words.buffer, words.byteOffset + 4 * at, stemByteCount);
    at += Math.ceil(stemByteCount / 4);
    if (paragraphCount > 0) paragraphs = paragraphsOf(words, at, paragraphCount);
  }
  let decoded = stemBytes === null;
  return {
    language: languageOf(words),
    words: words[2]!,
    get stems() {
      if (!decoded) {
        stems = stemsOfUtf8(stemBytes!);
        decoded = true;
      }
      return stems;
    },
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    terms,
    tagSketch: (words[0]! & (1 << 8)) !== 0 ? tag : null,
    paragraphs,
  };
}

/** A version-2 stored record, as version 3 would have made it (its paragraphs, never stored, left out). */
function decodeVersion2(words: Uint32Array): CascadeRecord {
  let at = V2_HEADER_WORDS;
  const shingles = words.subarray(at, at + words[3]!).filter(isSampledShingle);
  at += words[3]!;
  const tag = words.slice(at, at + Math.min(words[4]!, TAG_SKETCH_SIZE));
  at += words[4]!;
  const stems = stemsOfUtf8(new Uint8Array(words.buffer, words.byteOffset + 4 * at, words[5]!));
  const terms = new Uint32Array(stems.length);
  for (let i = 0; i < stems.length; i++) terms[i] = termHash(stems[i]!);
  return {
    language: languageOf(words),
    words: words[2]!,
    stems: [],
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    terms: sortedDistinctInPlace(terms),
    tagSketch: (words[0]! & (1 << 8)) !== 0 ? tag : null,
    paragraphs: [],
  };
}

/** Only the hashes a store indexes (grammar sketch, word shingles). */
export function decodeCascadeHashes(bytes: Uint8Array): Pick<CascadeRecord, 'tagSketch' | 'shingles'> {
  const words = wordsOf(bytes);
  if ((words[0]! & 0xff) === V2) {
    const { tagSketch, shingles } = decodeVersion2(words);
    return { tagSketch, shingles };
  }
  // Views on the bytes: the terms and stems are not read.
  const shingles = words.subarray(HEADER_WORDS, HEADER_WORDS + words[3]!);
  const tag = words.subarray(HEADER_WORDS + words[3]!, HEADER_WORDS + words[3]! + words[4]!);
  return { tagSketch: (words[0]! & (1 << 8)) !== 0 ? tag : null, shingles };
}
