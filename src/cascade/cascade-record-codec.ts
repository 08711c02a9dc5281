/**
 * A page's cascade record as bytes: made where the page is analysed (a worker thread) and sent as
 * one buffer; decoded on the committing thread (the page-level arrays into fresh arrays, the
 * paragraphs as typed-array views on the bytes, the stems only when a stage reads them); stored as a
 * prefix of the same bytes (the `cascade_records` table, SQLite and PostgreSQL, and a PostgreSQL
 * process's record-arena.ts).
 *
 * Layout (version 4), 32-bit words in the machine's byte order (as bucket_counts; neardup runs on
 * little-endian machines): header of 3 words — version | flags << 8 (bit 8: a grammar sketch; bit 9:
 * the shingles' 3 always-0 low bits left out) | the three arrays' Rice parameters (5 bits each) from
 * bit 16; language (3 Latin-1 bytes); bytes of the stored prefix — then bits (sorted-codes.ts, least
 * significant first): the gamma-coded words, shingle count, tag-sketch count and term count, then
 * the sampled word shingles, the grammar sketch and the page's 16-bit terms, each array as its first
 * value and gaps in a Rice code; padded to 4 bytes. The stored prefix ends there: a stored page is
 * compared through these page-level arrays only (624 bytes a page on average over 5,000 texts of
 * bench:corpus, 891 as version 3; scripts/measure-record-codec.ts) — then, for the page being
 * judged only: stem bytes and paragraph count (2 words), the stems (UTF-8, joined by '\n', padded to
 * 4 bytes), per paragraph (words, shingle count, term count), the paragraphs' shingles and terms.
 *
 * Stored by earlier releases, and read as version 4 would have made them:
 * - version 3: header of 6 words (version | tag flag << 8, language, words, shingle count,
 *   tag-sketch count, term count), then the shingles and the sketch as 32-bit words and the terms as
 *   16-bit ones (padded to 4 bytes); the same transient section after them. Decoded as views on the
 *   bytes (the terms widened into an array of their own).
 * - version 2: every shingle, a 256-value grammar sketch, the stems instead of terms; read with the
 *   shingles sampled, the sketch's 64 smallest values, the stems' terms.
 */
import { CascadeModelError } from '../errors.js';
import { SHINGLE_SAMPLE, SKETCH_SIZE, TAG_SKETCH_SIZE, isSampledShingle, packedRecordOf, termHash, type CascadeRecord, type PackedRecord, type ParagraphProfile } from './cascade-record.js';
import { sortedDistinctInPlace } from './shingle-sketch.js';
import { BitReader, BitWriter, gammaBits, riceBits, riceParameter } from './sorted-codes.js';

const VERSION = 4;
const HEADER_WORDS = 3;
/** Header flags (word 0). */
const HAS_TAG = 1 << 8;
const SHINGLES_SHIFTED = 1 << 9;
/** The Rice parameters' places in word 0 (5 bits each). */
const K_SHINGLES = 16;
const K_TAG = 21;
const K_TERMS = 26;
/** The low bits of a sampled shingle, always 0 (isSampledShingle). */
const SHINGLE_SHIFT = Math.log2(SHINGLE_SAMPLE);
/** The transient section's own header: stem bytes, paragraph count. */
const TRANSIENT_HEADER_WORDS = 2;
const V3 = 3;
const V3_HEADER_WORDS = 6;
const V2 = 2;
const V2_HEADER_WORDS = 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Words that `count` 16-bit terms take (version 3). */
function termWords(count: number): number {
  return Math.ceil(count / 2);
}

/** How the stored arrays are coded: Rice parameters, shingle shift, bits of the coded part. */
interface StoredCoding {
  readonly kShingles: number;
  readonly kTag: number;
  readonly kTerms: number;
  readonly shift: number;
  readonly bits: number;
}

function storedCoding(record: CascadeRecord, tag: Uint32Array, terms: Uint32Array): StoredCoding {
  const shingles = record.shingles;
  let low = 0;
  for (let i = 0; i < shingles.length; i++) low |= shingles[i]!;
  // Sampled shingles (every record cascadeRecord makes) lose their 0 bits; others are kept whole.
  const shift = (low & (SHINGLE_SAMPLE - 1)) === 0 ? SHINGLE_SHIFT : 0;
  const kShingles = riceParameter(shingles, shift);
  const kTag = riceParameter(tag);
  const kTerms = riceParameter(terms);
  const counts = gammaBits(record.words) + gammaBits(shingles.length) + gammaBits(tag.length) + gammaBits(terms.length);
  let bits: number;
  try {
    bits = counts + riceBits(shingles, kShingles, shift) + riceBits(tag, kTag) + riceBits(terms, kTerms);
  } catch (error) {
    if (error instanceof RangeError) throw new CascadeModelError(`Expected a record's shingles, grammar sketch and terms each sorted and distinct: ${error.message}`);
    throw error;
  }
  return { kShingles, kTag, kTerms, shift, bits };
}

/** The record's bytes; `withParagraphs`: the stems and paragraph section too (the page being judged needs them). */
export function encodeCascadeRecord(record: CascadeRecord, withParagraphs = true): Uint8Array {
  const packedRecord = packedRecordOf(record);
  const tag = record.tagSketch ?? new Uint32Array(0);
  const terms = record.terms;
  const coding = storedCoding(record, tag, terms);
  const storedWords = HEADER_WORDS + Math.ceil(coding.bits / 32);
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
  words[0] = VERSION | (record.tagSketch === null ? 0 : HAS_TAG) | (coding.shift === 0 ? 0 : SHINGLES_SHIFTED)
    | (coding.kShingles << K_SHINGLES) | (coding.kTag << K_TAG) | (coding.kTerms << K_TERMS);
  words[1] = (language.charCodeAt(0) & 0xff) | ((language.charCodeAt(1) & 0xff) << 8) | ((language.charCodeAt(2) & 0xff) << 16);
  words[2] = 4 * storedWords;
  const writer = new BitWriter(words, 32 * HEADER_WORDS);
  writer.gamma(record.words);
  writer.gamma(record.shingles.length);
  writer.gamma(tag.length);
  writer.gamma(terms.length);
  writer.rice(record.shingles, coding.kShingles, coding.shift);
  writer.rice(tag, coding.kTag);
  writer.rice(terms, coding.kTerms);
  if (!withParagraphs) return new Uint8Array(words.buffer);
  let at = storedWords;
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

function versionOf(words: Uint32Array): number {
  return words[0]! & 0xff;
}

/** Words of the stored prefix of a version-3 record. */
function v3StoredWordsOf(words: Uint32Array): number {
  return V3_HEADER_WORDS + words[3]! + words[4]! + termWords(words[5]!);
}

/** The stored prefix of encoded bytes (no stems, no paragraph section): a multiple of 4 bytes. */
export function storedPart(bytes: Uint8Array): Uint8Array {
  const words = wordsOf(bytes);
  const version = versionOf(words);
  return bytes.subarray(0, version === VERSION ? words[2]! : version === V2 ? words[7]! : 4 * v3StoredWordsOf(words));
}

/** Header words of each version read. */
const HEADER_WORDS_OF: Record<number, number> = { [VERSION]: HEADER_WORDS, [V3]: V3_HEADER_WORDS, [V2]: V2_HEADER_WORDS };

/** The bytes as 32-bit words: a view when they are 4-byte aligned, else a copy. */
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (bytes.length < 4 * HEADER_WORDS || bytes.length % 4 !== 0) {
    throw new CascadeModelError(`Expected a cascade record of at least ${4 * HEADER_WORDS} bytes, a multiple of 4, got ${bytes.length}`);
  }
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  const version = versionOf(words);
  const headerWords = HEADER_WORDS_OF[version];
  if (headerWords === undefined) throw new CascadeModelError(`Expected a cascade record of version ${VERSION}, ${V3} or ${V2}, got version ${version}`);
  if (words.length < headerWords) throw new CascadeModelError(`Expected a version ${version} cascade record of at least ${4 * headerWords} bytes, got ${bytes.length}`);
  if (version === VERSION) {
    const stored = words[2]!;
    if (stored % 4 !== 0 || stored < 4 * HEADER_WORDS || stored > bytes.length) {
      throw new CascadeModelError(`Expected a version ${VERSION} cascade record's stored part of ${4 * HEADER_WORDS} to ${bytes.length} bytes, a multiple of 4, got ${stored}`);
    }
  }
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

/** The page-level arrays of a version-4 record and the word its transient section starts at. */
interface StoredArrays {
  readonly words: number;
  readonly shingles: Uint32Array;
  readonly tag: Uint32Array;
  readonly terms: Uint32Array | null;
  readonly end: number;
}

/**
 * A version-4 record's coded arrays, decoded in one pass into one fresh buffer (the shingles, the
 * sketch, then the terms unless `withTerms` is false).
 */
function storedArrays(words: Uint32Array, withTerms: boolean): StoredArrays {
  const header = words[0]!;
  const end = words[2]! / 4;
  const bits = new BitReader(words, 32 * HEADER_WORDS, 32 * end);
  try {
    const wordCount = bits.gamma();
    const shingleCount = bits.gamma();
    const tagCount = bits.gamma();
    const termCount = bits.gamma();
    if (shingleCount + tagCount + termCount > 32 * end) throw new RangeError(`Expected at most ${32 * end} values, got ${shingleCount + tagCount + termCount}`);
    // One buffer for the arrays (typed arrays of their own buffer each cost more to make).
    const buffer = new ArrayBuffer(4 * (shingleCount + tagCount + (withTerms ? termCount : 0)));
    const shingles = new Uint32Array(buffer, 0, shingleCount);
    const tag = new Uint32Array(buffer, 4 * shingleCount, tagCount);
    const terms = withTerms ? new Uint32Array(buffer, 4 * (shingleCount + tagCount), termCount) : null;
    bits.riceInto(shingles, 0, shingleCount, (header >>> K_SHINGLES) & 31, (header & SHINGLES_SHIFTED) !== 0 ? SHINGLE_SHIFT : 0);
    bits.riceInto(tag, 0, tagCount, (header >>> K_TAG) & 31);
    if (terms !== null) bits.riceInto(terms, 0, termCount, (header >>> K_TERMS) & 31);
    return { words: wordCount, shingles, tag, terms, end };
  } catch (error) {
    if (error instanceof RangeError) throw new CascadeModelError(`Expected a version ${VERSION} cascade record's stored part of ${4 * end} bytes: ${error.message}`);
    throw error;
  }
}

/**
 * The record of encodeCascadeRecord's bytes (stems and paragraphs empty for a stored prefix): the
 * page-level arrays decoded into fresh arrays, the paragraphs views on the bytes, the stems decoded
 * when first read.
 */
export function decodeCascadeRecord(bytes: Uint8Array): CascadeRecord {
  const words = wordsOf(bytes);
  const version = versionOf(words);
  if (version === V2) return decodeVersion2(words);
  const { words: wordCount, shingles, tag, terms, end } = version === V3 ? version3Arrays(words) : storedArrays(words, true);
  let at = end;
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
    words: wordCount,
    get stems() {
      if (!decoded) {
        stems = stemsOfUtf8(stemBytes!);
        decoded = true;
      }
      return stems;
    },
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    terms: terms!,
    tagSketch: (words[0]! & HAS_TAG) !== 0 ? tag : null,
    paragraphs,
  };
}

/** A version-3 record's page-level arrays: views on the bytes (the terms widened into their own array). */
function version3Arrays(words: Uint32Array): StoredArrays {
  const shingleCount = words[3]!;
  const tagCount = words[4]!;
  const termCount = words[5]!;
  let at = V3_HEADER_WORDS;
  const shingles = words.subarray(at, at + shingleCount);
  at += shingleCount;
  const tag = words.subarray(at, at + tagCount);
  at += tagCount;
  // Widened once: the stages compare terms as 32-bit values.
  const terms = Uint32Array.from(new Uint16Array(words.buffer, words.byteOffset + 4 * at, termCount));
  at += termWords(termCount);
  return { words: words[2]!, shingles, tag, terms, end: at };
}

/** A version-2 stored record, as version 4 would have made it (its paragraphs, never stored, left out). */
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
    tagSketch: (words[0]! & HAS_TAG) !== 0 ? tag : null,
    paragraphs: [],
  };
}

/** Only the hashes a store indexes (grammar sketch, word shingles): the terms and stems are not read. */
export function decodeCascadeHashes(bytes: Uint8Array): Pick<CascadeRecord, 'tagSketch' | 'shingles'> {
  const words = wordsOf(bytes);
  const version = versionOf(words);
  if (version === V2) {
    const { tagSketch, shingles } = decodeVersion2(words);
    return { tagSketch, shingles };
  }
  if (version === V3) {
    // Views on the bytes.
    const shingles = words.subarray(V3_HEADER_WORDS, V3_HEADER_WORDS + words[3]!);
    const tag = words.subarray(V3_HEADER_WORDS + words[3]!, V3_HEADER_WORDS + words[3]! + words[4]!);
    return { tagSketch: (words[0]! & HAS_TAG) !== 0 ? tag : null, shingles };
  }
  const { shingles, tag } = storedArrays(words, false);
  return { tagSketch: (words[0]! & HAS_TAG) !== 0 ? tag : null, shingles };
}
