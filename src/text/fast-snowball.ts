/**
 * The snowball-stemmers algorithms, run several times faster with the same stems.
 *
 * snowball-stemmers is Snowball's Java output translated to JavaScript: every field read goes
 * through a getter that calls hasOwnProperty, every runtime call through an argument-counting
 * dispatcher, and every character read through two method calls — 4–20 µs a word. The language
 * code itself (the `r_*` routines and `stem`) is plain: it reads and writes `cursor`, `limit`,
 * `bra`, `ket`, its `I_*`/`B_*` fields, and calls the Snowball runtime (`find_among_b`,
 * `slice_from`, `eq_s_b`, `in_grouping`, ...). So this module keeps the package's language code
 * and runs it on a fast runtime: an object with plain data fields and a string, whose prototype
 * holds the runtime below (a line-for-line copy of the package's SnowballProgram on a string) and
 * the language's own routines, copied from the package's class.
 *
 * The package exports only `newStemmer`, so the class is found while `newStemmer` constructs it:
 * its generated constructor calls `Object.getPrototypeOf(<language>Stemmer)`, which is observed for
 * that one synchronous call. A language is hosted only when its routines use nothing else (no
 * string fields, `slice_to` or among-routines, checked from their source); otherwise, or if the
 * package changes shape, `fastSnowballStemmer` returns null and the caller uses the package as is.
 * The tests compare the stems with the package's on large word lists for every hosted language.
 */
import { createRequire } from 'node:module';
import type snowballStemmers from 'snowball-stemmers';

/**
 * The snowball-stemmers package, loaded on first use: it is a 0.9 MB CommonJS file that English,
 * Russian and German (stemmed by this project's own code) never need, and loading it at start-up
 * took a large share of a short command's time. require() keeps it loaded once per thread.
 */
export function snowballPackage(): typeof snowballStemmers {
  return createRequire(import.meta.url)('snowball-stemmers') as typeof snowballStemmers;
}

/** A row of a Snowball among table, as the runtime reads it. */
interface AmongRow {
  readonly s: Int32Array;
  readonly substringI: number;
  readonly result: number;
}

type Fields = Record<string, unknown>;

/** The Snowball runtime on a plain string (snowball-stemmers' SnowballProgram, same semantics). */
class FastProgram {
  s = '';
  cursor = 0;
  limit = 0;
  limit_backward = 0;
  bra = 0;
  ket = 0;
  /** The language code calls `this.current.length()` (Arabic). */
  readonly current: { length(): number };
  readonly #amongs: ReadonlyMap<unknown, readonly AmongRow[]>;

  constructor(amongs: ReadonlyMap<unknown, readonly AmongRow[]>, fields: Fields) {
    this.#amongs = amongs;
    Object.assign(this, fields);
    this.current = { length: () => this.s.length };
  }

  in_grouping$esjava$3(g: readonly number[], min: number, max: number): boolean {
    if (this.cursor >= this.limit) return false;
    let ch = this.s.charCodeAt(this.cursor);
    if (ch > max || ch < min) return false;
    ch -= min;
    if ((g[ch >> 3]! & (0x1 << (ch & 0x7))) === 0) return false;
    this.cursor++;
    return true;
  }

  in_grouping_b$esjava$3(g: readonly number[], min: number, max: number): boolean {
    if (this.cursor <= this.limit_backward) return false;
    let ch = this.s.charCodeAt(this.cursor - 1);
    if (ch > max || ch < min) return false;
    ch -= min;
    if ((g[ch >> 3]! & (0x1 << (ch & 0x7))) === 0) return false;
    this.cursor--;
    return true;
  }

  out_grouping$esjava$3(g: readonly number[], min: number, max: number): boolean {
    if (this.cursor >= this.limit) return false;
    let ch = this.s.charCodeAt(this.cursor);
    if (ch > max || ch < min) {
      this.cursor++;
      return true;
    }
    ch -= min;
    if ((g[ch >> 3]! & (0x1 << (ch & 0x7))) === 0) {
      this.cursor++;
      return true;
    }
    return false;
  }

  out_grouping_b$esjava$3(g: readonly number[], min: number, max: number): boolean {
    if (this.cursor <= this.limit_backward) return false;
    let ch = this.s.charCodeAt(this.cursor - 1);
    if (ch > max || ch < min) {
      this.cursor--;
      return true;
    }
    ch -= min;
    if ((g[ch >> 3]! & (0x1 << (ch & 0x7))) === 0) {
      this.cursor--;
      return true;
    }
    return false;
  }

  eq_s$esjava$1(t: string): boolean {
    if (this.limit - this.cursor < t.length) return false;
    for (let i = 0; i !== t.length; i++) if (this.s.charCodeAt(this.cursor + i) !== t.charCodeAt(i)) return false;
    this.cursor += t.length;
    return true;
  }

  eq_s_b$esjava$1(t: string): boolean {
    if (this.cursor - this.limit_backward < t.length) return false;
    for (let i = 0; i !== t.length; i++) if (this.s.charCodeAt(this.cursor - t.length + i) !== t.charCodeAt(i)) return false;
    this.cursor -= t.length;
    return true;
  }

  find_among$esjava$1(table: unknown): number {
    const v = this.#amongs.get(table)!;
    let i = 0;
    let j = v.length;
    const c = this.cursor;
    const l = this.limit;
    let commonI = 0;
    let commonJ = 0;
    let firstKeyInspected = false;
    for (;;) {
      const k = i + ((j - i) >> 1);
      let diff = 0;
      let common = commonI < commonJ ? commonI : commonJ;
      const w = v[k]!;
      for (let i2 = common; i2 < w.s.length; i2++) {
        if (c + common === l) {
          diff = -1;
          break;
        }
        diff = this.s.charCodeAt(c + common) - w.s[i2]!;
        if (diff !== 0) break;
        common++;
      }
      if (diff < 0) {
        j = k;
        commonJ = common;
      } else {
        i = k;
        commonI = common;
      }
      if (j - i <= 1) {
        if (i > 0) break;
        if (j === i) break;
        if (firstKeyInspected) break;
        firstKeyInspected = true;
      }
    }
    for (;;) {
      const w = v[i]!;
      if (commonI >= w.s.length) {
        this.cursor = c + w.s.length;
        return w.result;
      }
      i = w.substringI;
      if (i < 0) return 0;
    }
  }

  find_among_b$esjava$1(table: unknown): number {
    const v = this.#amongs.get(table)!;
    let i = 0;
    let j = v.length;
    const c = this.cursor;
    const lb = this.limit_backward;
    let commonI = 0;
    let commonJ = 0;
    let firstKeyInspected = false;
    for (;;) {
      const k = i + ((j - i) >> 1);
      let diff = 0;
      let common = commonI < commonJ ? commonI : commonJ;
      const w = v[k]!;
      for (let i2 = w.s.length - 1 - common; i2 >= 0; i2--) {
        if (c - common === lb) {
          diff = -1;
          break;
        }
        diff = this.s.charCodeAt(c - 1 - common) - w.s[i2]!;
        if (diff !== 0) break;
        common++;
      }
      if (diff < 0) {
        j = k;
        commonJ = common;
      } else {
        i = k;
        commonI = common;
      }
      if (j - i <= 1) {
        if (i > 0) break;
        if (j === i) break;
        if (firstKeyInspected) break;
        firstKeyInspected = true;
      }
    }
    for (;;) {
      const w = v[i]!;
      if (commonI >= w.s.length) {
        this.cursor = c - w.s.length;
        return w.result;
      }
      i = w.substringI;
      if (i < 0) return 0;
    }
  }

  replace_s$esjava$3(cBra: number, cKet: number, t: string): number {
    const adjustment = t.length - (cKet - cBra);
    this.s = cBra === 0 && cKet === this.s.length ? t : this.s.substring(0, cBra) + t + this.s.substring(cKet);
    this.limit += adjustment;
    if (this.cursor >= cKet) this.cursor += adjustment;
    else if (this.cursor > cBra) this.cursor = cBra;
    return adjustment;
  }

  slice_check$esjava$0(): void {
    if (this.bra < 0 || this.bra > this.ket || this.ket > this.limit || this.limit > this.s.length) {
      throw new Error('Snowball: faulty slice operation');
    }
  }

  slice_from$esjava$1(t: string): void {
    this.slice_check$esjava$0();
    this.replace_s$esjava$3(this.bra, this.ket, t);
  }

  slice_del$esjava$0(): void {
    this.slice_from$esjava$1('');
  }

  insert$esjava$3(cBra: number, cKet: number, t: string): void {
    const adjustment = this.replace_s$esjava$3(cBra, cKet, t);
    if (cBra <= this.bra) this.bra += adjustment;
    if (cBra <= this.ket) this.ket += adjustment;
  }

  /** The package's `stem(word)`: setCurrent, the language's stem routine, getCurrent. */
  stemWord(word: string): string {
    this.s = word;
    this.cursor = 0;
    this.limit = word.length;
    this.limit_backward = 0;
    this.bra = 0;
    this.ket = word.length;
    (this as unknown as { stem$esjava$0(): unknown }).stem$esjava$0();
    return this.s;
  }
}

/** Runtime members the language code may use (besides its own r_* routines and I_/B_ fields). */
const RUNTIME_MEMBERS = new Set([
  'cursor', 'limit', 'limit_backward', 'bra', 'ket', 'current.length',
  ...Object.getOwnPropertyNames(FastProgram.prototype).filter((name) => name.includes('$esjava$')),
]);

type AnyClass = (new () => object) & Record<string, unknown>;

/** The package's class for `algorithm`, observed while newStemmer constructs it; null if not seen. */
function packageClass(algorithm: string): AnyClass | null {
  const name = `${algorithm}Stemmer`;
  const original = Object.getPrototypeOf;
  let found: AnyClass | null = null;
  try {
    Object.getPrototypeOf = function observe(o: unknown): object | null {
      if (found === null && typeof o === 'function' && o.name === name) found = o as AnyClass;
      return original(o) as object | null;
    };
    snowballPackage().newStemmer(algorithm);
  } finally {
    Object.getPrototypeOf = original;
  }
  return found;
}

type ProgramClass = new (amongs: ReadonlyMap<unknown, readonly AmongRow[]>, fields: Fields) => FastProgram;

interface Hosted {
  readonly Program: ProgramClass;
  readonly amongs: ReadonlyMap<unknown, readonly AmongRow[]>;
  readonly fields: Fields;
}

/** The language's routines on a FastProgram prototype, or null when the code uses anything else. */
function host(algorithm: string): Hosted | null {
  const cls = packageClass(algorithm);
  if (cls === null) return null;
  const proto = cls.prototype as object;
  const descriptors = Object.getOwnPropertyDescriptors(proto);
  const routines: Record<string, unknown> = {};
  const fieldNames: string[] = [];
  for (const [key, descriptor] of Object.entries(descriptors)) {
    if (key === 'constructor') continue;
    if (typeof descriptor.value === 'function') {
      // Dispatchers (`stem`) are not needed; routines are `r_x$esjava$0` and `stem$esjava$0`.
      if (key.includes('$esjava$')) routines[key] = descriptor.value;
    } else if (descriptor.get !== undefined) {
      if (!/^[IB]_/.test(key)) return null;
      fieldNames.push(key);
    }
  }
  if (typeof routines['stem$esjava$0'] !== 'function') return null;
  // Every `this.x` the routines touch must be a runtime member, a routine or a field.
  for (const routine of Object.values(routines)) {
    for (const match of String(routine).matchAll(/this\.([A-Za-z_$][\w$]*(?:\.length)?)/g)) {
      const member = match[1]!;
      if (RUNTIME_MEMBERS.has(member) || member in routines || fieldNames.includes(member)) continue;
      if (member === 'current' || member.startsWith('current.')) return null;
      return null;
    }
  }
  // Field defaults as the package's getters give them on a fresh instance.
  const fresh = new cls() as Record<string, unknown>;
  const fields: Fields = {};
  for (const name of fieldNames) fields[name] = fresh[name];
  // Among tables: the class's static a_* arrays (read once, which makes them plain properties).
  const amongs = new Map<unknown, readonly AmongRow[]>();
  for (const key of Object.getOwnPropertyNames(cls)) {
    if (!/^a_\d+$/.test(key)) continue;
    const table = cls[key] as ReadonlyArray<{ s: number[]; substring_i: number; result: number; method: unknown }>;
    const rows: AmongRow[] = [];
    for (const row of table) {
      if (row.method !== null) return null;
      rows.push({ s: Int32Array.from(row.s), substringI: row.substring_i, result: row.result });
    }
    amongs.set(table, rows);
  }
  const Program = class extends FastProgram {};
  Object.assign(Program.prototype, routines);
  return { Program, amongs, fields };
}

/**
 * Algorithm → its hosted routines (null: not hostable), made on first use. Holds at most one entry
 * per algorithm of the package (unknown names are never stored), each fixed once made, so a
 * lookup's result never depends on earlier lookups.
 */
const HOSTED = new Map<string, Hosted | null>();

function hostedFor(algorithm: string): Hosted | null {
  const known = HOSTED.get(algorithm);
  if (known !== undefined) return known;
  if (!snowballPackage().algorithms().includes(algorithm)) return null;
  let hosted: Hosted | null = null;
  try {
    hosted = host(algorithm);
  } catch {
    hosted = null;
  }
  HOSTED.set(algorithm, hosted);
  return hosted;
}

/**
 * A stemmer for a snowball-stemmers algorithm ('spanish', 'portuguese', ...) giving the package's
 * stems, or null when the algorithm is not hosted. Like the package's, each one holds per-word
 * state: use one per thread and call, never re-entrantly.
 */
export function fastSnowballStemmer(algorithm: string): ((word: string) => string) | null {
  const hosted = hostedFor(algorithm);
  if (hosted === null) return null;
  const program = new hosted.Program(hosted.amongs, hosted.fields);
  return (word: string) => program.stemWord(word);
}
