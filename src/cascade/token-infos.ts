/**
 * What the cascade record needs per distinct token of a page's token table (cascade-record.ts): its
 * hash, its `shape` grammar tag, its content stem's term hash, and the page's distinct stems (with
 * their UTF-8 as the record codec stores them), made in one pass over the distinct tokens.
 */
import { stopWordSpansFor } from '../text/language-resources.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import type { StemCache } from '../text/stem-cache.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import type { TokenTable } from '../text/token-table.js';
import { fmix32 } from '../fingerprint/murmur-hash.js';
import { fnv1a } from './shingle-sketch.js';

/** Per distinct token (by token-table id): hash, `shape` tag hash, 16-bit term (cascade-record.ts termHash; 0: stop word). */
export interface TokenInfos {
  readonly hash: Uint32Array;
  readonly shape: Uint32Array;
  readonly term: Uint32Array;
  /** Distinct content stems of the page, in order of first occurrence. */
  readonly stems: string[];
  /** The stems' UTF-8 joined by '\n' (a view of the scratch), or null when not made (a surrogate, or out of room: see hashAndUtf8). */
  readonly stemUtf8: Uint8Array | null;
}

/**
 * The `shape` grammar: function words (the language's stop words) as themselves, numbers as `#`,
 * every other word as `_`. Synonym substitution replaces content words, so it keeps this sequence;
 * unrelated texts share few runs of 8 (measured in NOTES-cascade.md).
 */
const NUMBER_SHAPE = fmix32(fnv1a('#'));
const WORD_SHAPE = fmix32(fnv1a('_'));

/** FNV-1a of text[start, end), finalised (no slice made). */
function spanHash32(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Words of tokenInfos' buffer: hashes, the stems' table, room for the stems' UTF-8. */
export function tokenInfosWords(table: TokenTable): number {
  return 3 * table.distinct + stemTableLength(table.distinct) + Math.ceil(stemUtf8Room(table) / 4);
}

/**
 * Bytes kept for the stems' UTF-8: a stem is rarely longer than its token and the first occurrences of
 * distinct tokens are disjoint spans of the text, so 3 bytes a character and a separator per token
 * are enough but for odd pages (then the codec encodes the stems itself).
 */
function stemUtf8Room(table: TokenTable): number {
  return 3 * table.text.length + table.distinct;
}

/**
 * Per distinct token: its hashes, and its stem (one slice and one stem per distinct content token, or
 * the analysis's stems and stop-word flags when given). `buffer`: tokenInfosWords(table) words.
 */
export function tokenInfos(table: TokenTable, language: string, stemCache: StemCache | undefined, given: TokenStems | undefined, buffer: Uint32Array): TokenInfos {
  const { text, distinct, spans } = table;
  const hash = buffer.subarray(0, distinct);
  const shape = buffer.subarray(distinct, 2 * distinct);
  const term = buffer.subarray(2 * distinct, 3 * distinct);
  const slotsEnd = 3 * distinct + stemTableLength(distinct);
  const slots = buffer.subarray(3 * distinct, slotsEnd).fill(0);
  const utf8 = new Uint8Array(buffer.buffer, buffer.byteOffset + 4 * slotsEnd, stemUtf8Room(table));
  // Bytes of the stems' UTF-8 so far; −1 once given up (a surrogate, or out of room).
  let utf8Length = 0;
  const stems: string[] = [];
  const stop = given === undefined ? stopFlags(table, language) : given.stop;
  const stem = given === undefined ? stemmerFor(language, { stemCache }) : null;
  for (let id = 0; id < distinct; id++) {
    const start = spans[id * 3]!;
    const end = spans[id * 3 + 1]!;
    const h = spanHash32(text, start, end);
    hash[id] = h;
    if (stop[id] === 1) {
      shape[id] = h;
      term[id] = 0;
      continue;
    }
    const s = stem === null ? given!.stems[id]! : stem(text.slice(start, end));
    const code = text.charCodeAt(start);
    shape[id] = code >= 0x30 && code <= 0x39 ? NUMBER_SHAPE : WORD_SHAPE;
    // The stem's term hash and its UTF-8 after a separator, in one read of its characters; the bytes
    // count only when the stem is new.
    const from = stems.length === 0 ? 0 : utf8Length + 1;
    const packed = utf8Length >= 0 && from + 3 * s.length <= utf8.length ? TERM_AND_UTF8 : TERM_ONLY;
    const written = hashAndUtf8(s, utf8, from, packed, termOut);
    term[id] = termOfHash(termOut[0]!);
    if (addStem(slots, stems, s, termOut[0]!) && utf8Length >= 0) {
      if (written < 0) {
        utf8Length = -1;
      } else {
        if (from > 0) utf8[utf8Length] = 0x0a;
        utf8Length = written;
      }
    }
  }
  return { hash, shape, term, stems, stemUtf8: utf8Length < 0 ? null : utf8.subarray(0, utf8Length) };
}

/**
 * A content stem's term from its 32-bit hash: the top 16 bits, never 0 (0 marks a stop word). A
 * record stores its terms as 16-bit values (cascade-record-codec.ts); a page's distinct terms are a
 * few hundred of 65,536, so a chance collision rarely explains a stem it should not.
 */
export function termOfHash(hash: number): number {
  return hash >>> 16 || 1;
}

const TERM_ONLY = 0;
const TERM_AND_UTF8 = 1;
/** hashAndUtf8's hash out-parameter (written, then read at once by the caller). */
const termOut = new Uint32Array(1);

/**
 * termHash(stem) into out[0]; with TERM_AND_UTF8 also the stem's UTF-8 (as TextEncoder makes it)
 * into bytes from `at` (room for 3 bytes a character), returning where it ends, or −1 when not
 * written (TERM_ONLY, or a surrogate: the codec then encodes the stems itself).
 */
function hashAndUtf8(stem: string, bytes: Uint8Array, at: number, mode: number, out: Uint32Array): number {
  let h = 0x811c9dc5;
  let w = mode === TERM_AND_UTF8 ? at : -1;
  for (let i = 0; i < stem.length; i++) {
    const c = stem.charCodeAt(i);
    h ^= c;
    h = Math.imul(h, 0x01000193);
    if (w < 0) continue;
    if (c < 0x80) {
      bytes[w++] = c;
    } else if (c < 0x800) {
      bytes[w++] = 0xc0 | (c >> 6);
      bytes[w++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      w = -1;
    } else {
      bytes[w++] = 0xe0 | (c >> 12);
      bytes[w++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[w++] = 0x80 | (c & 0x3f);
    }
  }
  out[0] = fmix32(h >>> 0) || 1;
  return w;
}

/** Slots of the table of a page's distinct stems: a power of two, at least twice the tokens. */
function stemTableLength(distinct: number): number {
  return 2 ** Math.ceil(Math.log2(2 * distinct + 2));
}

/**
 * Appends `stem` to `stems` unless it is there (returns whether it was appended): `slots` (open
 * addressing by the stem's term hash `t`) holds 1 + the index in `stems` of each stem added, 0 when free.
 */
function addStem(slots: Uint32Array, stems: string[], stem: string, t: number): boolean {
  const mask = slots.length - 1;
  let i = t & mask;
  for (;;) {
    const slot = slots[i]!;
    if (slot === 0) {
      stems.push(stem);
      slots[i] = stems.length;
      return true;
    }
    if (stems[slot - 1] === stem) return false;
    i = (i + 1) & mask;
  }
}

/** Per distinct token, 1 when it is a stop word of `language` (as the analysis's TokenStems.stop). */
function stopFlags(table: TokenTable, language: string): Uint32Array {
  const { text, distinct, spans } = table;
  const stop = stopWordSpansFor(language);
  const flags = new Uint32Array(distinct);
  if (stop.size === 0) return flags;
  for (let id = 0; id < distinct; id++) flags[id] = stop.hasSpan(text, spans[id * 3]!, spans[id * 3 + 1]!, spans[id * 3 + 2]!) ? 1 : 0;
  return flags;
}
