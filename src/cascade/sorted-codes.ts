/**
 * Sorted distinct uint32 arrays and counts as bits, for the stored cascade record
 * (cascade-record-codec.ts): an array as the gaps between its values (the first value, then each
 * value − the previous − 1) in a Rice code — the gap's quotient by 2^k in unary (that many 0 bits,
 * then a 1), then its k low bits — with k chosen per array from its mean gap (Kiely 2004, the
 * parameter of a geometric distribution of that mean); a count in an Elias gamma code. `shift`: low
 * bits that are 0 in every value, left out (the sampled word shingles' 3).
 *
 * Bits are packed into 32-bit words least significant first. Hashes spread evenly over their range
 * have about geometric gaps, which a Rice code takes in ~1.5 bits more than log2(mean gap) a value
 * (scripts/measure-record-codec.ts, 1,054 texts of the two ground-truth sets: shingles 23.8 bits a
 * value instead of 32, grammar sketch 24.9, 16-bit terms 9.8; the best k per array did no better).
 * LEB128 varints of the same gaps took 28.9, 30.2 and 13.1: whole bytes fit these gaps badly.
 */

/** log(φ − 1), φ the golden ratio: Kiely's bound between two Rice parameters. */
const LOG_GOLDEN_MINUS_1 = Math.log((Math.sqrt(5) - 1) / 2);
/** The largest Rice parameter (a gap is < 2^32). */
const MAX_K = 31;

/** The values' gaps after dropping `shift` low bits, summed: the last value + 1 − count. */
function gapSum(values: Uint32Array, shift: number): number {
  const n = values.length;
  return n === 0 ? 0 : Math.floor(values[n - 1]! / 2 ** shift) + 1 - n;
}

/** The Rice parameter of sorted distinct `values` (their low `shift` bits dropped), from their mean gap. */
export function riceParameter(values: Uint32Array, shift = 0): number {
  const n = values.length;
  if (n === 0) return 0;
  const mean = gapSum(values, shift) / n;
  if (mean <= 0) return 0;
  // Gaps geometric with mean μ (θ = μ / (μ + 1)): k = max(0, 1 + ⌊log2(log(φ − 1) / log θ)⌋).
  const k = 1 + Math.floor(Math.log2(LOG_GOLDEN_MINUS_1 / Math.log(mean / (mean + 1))));
  return Math.max(0, Math.min(MAX_K, k));
}

/**
 * Bits of `values` (sorted distinct, `shift` low bits dropped) in the Rice code of parameter k;
 * throws a RangeError when they are not sorted and distinct or a dropped bit is not 0.
 */
export function riceBits(values: Uint32Array, k: number, shift = 0): number {
  const low = (1 << shift) - 1;
  let bits = values.length * (k + 1);
  let prev = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const x = v >>> shift;
    const gap = x - prev - 1;
    if (gap < 0 || (v & low) !== 0) throw notCodable(values, i, shift);
    bits += gap >>> k;
    prev = x;
  }
  return bits;
}

function notCodable(values: Uint32Array, i: number, shift: number): RangeError {
  return new RangeError(`Expected sorted distinct values with ${shift} low bits 0, got ${values[i]} at ${i} after ${i === 0 ? 'none' : values[i - 1]}`);
}

/** ⌊log2 n⌋ of 1 ≤ n < 2^32. */
function log2Floor(n: number): number {
  return 31 - Math.clz32(n);
}

/** Bits of `value` (0 ≤ value < 2^32 − 1) in the gamma code. */
export function gammaBits(value: number): number {
  return 2 * log2Floor(value + 1) + 1;
}

/** Bits written into zeroed 32-bit words, least significant first, from bit `pos`. */
export class BitWriter {
  readonly words: Uint32Array;
  pos: number;

  constructor(words: Uint32Array, pos = 0) {
    this.words = words;
    this.pos = pos;
  }

  /** The low `count` (≤ 31) bits of `value`. */
  bits(value: number, count: number): void {
    if (count === 0) return;
    const words = this.words;
    const w = this.pos >>> 5;
    const o = this.pos & 31;
    words[w] |= value << o;
    if (o + count > 32) words[w + 1] |= value >>> (32 - o);
    this.pos += count;
  }

  /** `q` 0 bits, then a 1. */
  unary(q: number): void {
    this.pos += q;
    this.words[this.pos >>> 5] |= 1 << (this.pos & 31);
    this.pos++;
  }

  /** `value` (0 ≤ value < 2^32 − 1) in the gamma code: n = value + 1 has L + 1 bits; L in unary, then n's low L bits. */
  gamma(value: number): void {
    const n = value + 1;
    const length = log2Floor(n);
    this.unary(length);
    this.bits(n - 2 ** length, length);
  }

  /** Sorted distinct `values` (`shift` low bits dropped, which must be 0) in the Rice code of parameter k. */
  rice(values: Uint32Array, k: number, shift = 0): void {
    const words = this.words;
    const mask = k === 0 ? 0 : 0xffffffff >>> (32 - k);
    const low = (1 << shift) - 1;
    let pos = this.pos;
    let prev = -1;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      const x = v >>> shift;
      const gap = x - prev - 1;
      if (gap < 0 || (v & low) !== 0) throw notCodable(values, i, shift);
      prev = x;
      // The quotient in unary, then the remainder's k bits.
      pos += gap >>> k;
      words[pos >>> 5] |= 1 << (pos & 31);
      pos++;
      if (k !== 0) {
        const r = gap & mask;
        const w = pos >>> 5;
        const o = pos & 31;
        words[w] |= r << o;
        if (o + k > 32) words[w + 1] |= r >>> (32 - o);
        pos += k;
      }
    }
    this.pos = pos;
  }
}

/** Reads what BitWriter wrote: bits of `words` from `pos`, up to bit `end`. */
export class BitReader {
  readonly words: Uint32Array;
  pos: number;
  readonly end: number;

  constructor(words: Uint32Array, pos: number, end: number) {
    this.words = words;
    this.pos = pos;
    this.end = end;
  }

  /** 0 bits up to the next 1, which is read too. */
  #unary(): number {
    const words = this.words;
    const start = this.pos;
    let w = start >>> 5;
    let t = words[w]! >>> (start & 31);
    let q = 0;
    if (t === 0) {
      q = 32 - (start & 31);
      const endWord = Math.ceil(this.end / 32);
      while (++w < endWord && (t = words[w]!) === 0) q += 32;
      if (w >= endWord) throw new RangeError(`Expected a 1 bit after bit ${start} before bit ${this.end}`);
    }
    // Trailing zeros of t: the lowest 1.
    q += 31 - Math.clz32(t & -t);
    this.pos = start + q + 1;
    return q;
  }

  /** `count` (≤ 31) bits. */
  bits(count: number): number {
    if (count === 0) return 0;
    const words = this.words;
    const w = this.pos >>> 5;
    const o = this.pos & 31;
    let r = words[w]! >>> o;
    if (o + count > 32) r |= words[w + 1]! << (32 - o);
    this.pos += count;
    return r & (0xffffffff >>> (32 - count));
  }

  gamma(): number {
    const length = this.#unary();
    if (length > 31) throw new RangeError(`Expected a gamma code of at most 31 0 bits before bit ${this.pos}, got ${length}`);
    return ((1 << length) >>> 0) + this.bits(length) - 1;
  }

  /**
   * `count` values of a Rice code of parameter k into out[at…] (their `shift` low bits put back).
   * One pass over the bits; throws when they run past `end`.
   */
  riceInto(out: Uint32Array, at: number, count: number, k: number, shift = 0): void {
    const words = this.words;
    const last = words.length - 1;
    const mask = k === 0 ? 0 : 0xffffffff >>> (32 - k);
    let pos = this.pos;
    let prev = -1;
    for (let i = 0; i < count; i++) {
      // The next 32 bits: mostly the whole code (a quotient of a few bits, then the remainder).
      const w = pos >>> 5;
      const o = pos & 31;
      // As int32 throughout (a uint32 over 2^31 would make the loop work on doubles).
      const window = o === 0 ? words[w]! | 0 : (words[w]! >>> o) | (w < last ? words[w + 1]! << (32 - o) : 0);
      let q: number;
      let r = 0;
      if (window === 0) {
        this.pos = pos;
        q = this.#unary();
        pos = this.pos;
        r = this.bits(k);
        pos += k;
      } else {
        // Trailing zeros: the quotient.
        q = 31 - Math.clz32(window & -window);
        pos += q + 1;
        if (k !== 0) {
          if (q + 1 + k <= 32) {
            r = (window >>> (q + 1)) & mask;
          } else {
            this.pos = pos;
            r = this.bits(k);
          }
          pos += k;
        }
      }
      // In 32-bit integers: sums modulo 2^32 are exact for values < 2^32.
      prev = (prev + 1 + (q << k) + r) | 0;
      out[at + i] = prev << shift;
    }
    if (pos > this.end) throw new RangeError(`Expected ${count} Rice-coded values to end by bit ${this.end}, they end at ${pos}`);
    this.pos = pos;
  }
}
