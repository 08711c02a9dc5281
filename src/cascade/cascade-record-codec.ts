/**
 * A stored page's cascade record as bytes (the `cascade_records` table, SQLite and PostgreSQL): what
 * the comparing stages read of a stored page — language, words, content stems, word shingles, terms
 * and grammar sketch. Paragraph profiles are left out: only the page being judged uses its own
 * (compiled-flag.ts), a stored page is compared through its page-level arrays. Layout, little-endian:
 * version u8, tag flag u8, language (3 bytes, space-padded), words u32, counts u32 × 4 (shingles,
 * terms, tag sketch, stem bytes), the three u32 arrays, then the stems as UTF-8 joined by '\n'.
 */
import { CascadeModelError } from '../errors.js';
import { SKETCH_SIZE, type CascadeRecord } from './cascade-record.js';

const VERSION = 1;
const HEADER = 2 + 3 + 4 + 16;

/** The record's bytes (a fresh Buffer). */
export function encodeCascadeRecord(record: CascadeRecord): Buffer {
  const stems = Buffer.from(record.stems.join('\n'), 'utf8');
  const tag = record.tagSketch ?? new Uint32Array(0);
  const arrays = 4 * (record.shingles.length + record.terms.length + tag.length);
  const out = Buffer.alloc(HEADER + arrays + stems.length);
  out[0] = VERSION;
  out[1] = record.tagSketch === null ? 0 : 1;
  out.write(record.language.padEnd(3, ' ').slice(0, 3), 2, 'latin1');
  out.writeUInt32LE(record.words, 5);
  out.writeUInt32LE(record.shingles.length, 9);
  out.writeUInt32LE(record.terms.length, 13);
  out.writeUInt32LE(tag.length, 17);
  out.writeUInt32LE(stems.length, 21);
  let at = HEADER;
  for (const a of [record.shingles, record.terms, tag]) {
    for (let i = 0; i < a.length; i++, at += 4) out.writeUInt32LE(a[i]!, at);
  }
  stems.copy(out, at);
  return out;
}

function u32s(bytes: Uint8Array, at: number, length: number): Uint32Array {
  const out = new Uint32Array(length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < length; i++) out[i] = view.getUint32(at + 4 * i, true);
  return out;
}

/** The record of encodeCascadeRecord's bytes (without paragraphs). Throws on bytes of another version. */
export function decodeCascadeRecord(bytes: Uint8Array): CascadeRecord {
  if (bytes.length < HEADER || bytes[0] !== VERSION) {
    throw new CascadeModelError(`Expected a cascade record of version ${VERSION}, got ${bytes.length < HEADER ? `${bytes.length} bytes` : `version ${bytes[0]}`}`);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shingleCount = buffer.readUInt32LE(9);
  const termCount = buffer.readUInt32LE(13);
  const tagCount = buffer.readUInt32LE(17);
  const stemBytes = buffer.readUInt32LE(21);
  let at = HEADER;
  const shingles = u32s(bytes, at, shingleCount);
  at += 4 * shingleCount;
  const terms = u32s(bytes, at, termCount);
  at += 4 * termCount;
  const tag = u32s(bytes, at, tagCount);
  at += 4 * tagCount;
  const stemText = buffer.toString('utf8', at, at + stemBytes);
  return {
    language: buffer.toString('latin1', 2, 5).trimEnd(),
    words: buffer.readUInt32LE(5),
    stems: stemText === '' ? [] : stemText.split('\n'),
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    terms,
    tagSketch: bytes[1] === 1 ? tag : null,
    paragraphs: [],
  };
}

/** Only the hashes a store indexes (grammar sketch, word shingles), without decoding the stems. */
export function decodeCascadeHashes(bytes: Uint8Array): Pick<CascadeRecord, 'tagSketch' | 'shingles'> {
  if (bytes.length < HEADER || bytes[0] !== VERSION) return { tagSketch: null, shingles: new Uint32Array(0) };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shingleCount = view.getUint32(9, true);
  const termCount = view.getUint32(13, true);
  const tagCount = view.getUint32(17, true);
  const shingles = u32s(bytes, HEADER, shingleCount);
  const tag = u32s(bytes, HEADER + 4 * (shingleCount + termCount), tagCount);
  return { tagSketch: bytes[1] === 1 ? tag : null, shingles };
}
