/**
 * Conversions of a 64-bit fingerprint between its two uint32 halves (used in hot loops),
 * 16 hex digits (printed), and a signed 64-bit BigInt (the SQLite INTEGER at the storage boundary).
 */
import { ValidationError, describeValue } from '../errors.js';
import type { Fingerprint } from '../types.js';

/** Bits set in a uint32 (SWAR popcount; no allocation). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance of two fingerprints, 0–64. */
export function hammingDistance(a: Fingerprint, b: Fingerprint): number {
  return popcount32((a.hi ^ b.hi) >>> 0) + popcount32((a.lo ^ b.lo) >>> 0);
}

/** 16 lower-case hex digits, most significant first. */
export function fingerprintToHex(fp: Fingerprint): string {
  return (fp.hi >>> 0).toString(16).padStart(8, '0') + (fp.lo >>> 0).toString(16).padStart(8, '0');
}

/** Parses 16 hex digits (an optional 0x prefix is allowed). */
export function fingerprintFromHex(hex: string): Fingerprint {
  const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]{16}$/.test(digits)) {
    throw new ValidationError(`Expected a fingerprint of 16 hex digits, got ${describeValue(hex)}`);
  }
  return { hi: Number.parseInt(digits.slice(0, 8), 16) >>> 0, lo: Number.parseInt(digits.slice(8), 16) >>> 0 };
}

/** The fingerprint as a signed 64-bit BigInt, as SQLite stores it. */
export function fingerprintToBigInt(fp: Fingerprint): bigint {
  return BigInt.asIntN(64, (BigInt(fp.hi >>> 0) << 32n) | BigInt(fp.lo >>> 0));
}

/** Reads a fingerprint from a (signed or unsigned) 64-bit BigInt. */
export function fingerprintFromBigInt(value: bigint): Fingerprint {
  const u = BigInt.asUintN(64, value);
  return { hi: Number(u >> 32n) >>> 0, lo: Number(u & 0xffffffffn) >>> 0 };
}
