/**
 * The one check of fingerprint parameters (distance, shingle size, hash, weighting, normaliser
 * version), used where they enter: the analysis, the index (asked for, and as stored in a database)
 * and the CLI's config.
 */
import { ValidationError, describeValue } from '../errors.js';
import { FEATURE_WEIGHTINGS, HASH_NAMES, type FingerprintParams } from '../types.js';

/** The largest supported distance (as in the config schema). */
export const MAX_DISTANCE = 31;
/** The largest supported shingle size (as in the config schema). */
export const MAX_SHINGLE_SIZE = 16;
/** The largest normaliser version a database may name. */
const MAX_NORMALIZER_VERSION = 1_000_000;

/** Throws a ValidationError unless `distance` is an integer 0–31. */
export function assertDistance(distance: unknown): asserts distance is number {
  if (typeof distance !== 'number' || !Number.isInteger(distance) || distance < 0 || distance > MAX_DISTANCE) {
    throw new ValidationError(`Expected \`distance\` to be an integer 0–${MAX_DISTANCE}, got ${describeValue(distance)}`);
  }
}

function assertIntIn(value: unknown, name: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`Expected \`${name}\` to be an integer ${min}–${max}, got ${describeValue(value)}`);
  }
}

function assertOneOf(value: unknown, name: string, choices: readonly string[]): void {
  if (typeof value !== 'string' || !choices.includes(value)) {
    throw new ValidationError(`Expected \`${name}\` to be one of ${choices.join('|')}, got ${describeValue(value)}`);
  }
}

/** Throws a ValidationError naming the first parameter that is not valid (no copy is made). */
export function assertFingerprintParams(params: unknown): asserts params is FingerprintParams {
  if (typeof params !== 'object' || params === null) {
    throw new ValidationError(`Expected \`params\` to be an object of fingerprint parameters, got ${describeValue(params)}`);
  }
  const p = params as Record<string, unknown>;
  assertDistance(p.distance);
  assertIntIn(p.shingleSize, 'shingleSize', 1, MAX_SHINGLE_SIZE);
  assertOneOf(p.hash, 'hash', HASH_NAMES);
  assertOneOf(p.weighting, 'weighting', FEATURE_WEIGHTINGS);
  assertIntIn(p.normalizerVersion, 'normalizerVersion', 0, MAX_NORMALIZER_VERSION);
}

/** Validates fingerprint parameters at the boundary and returns a plain, frozen copy. */
export function validateParams(params: unknown): FingerprintParams {
  assertFingerprintParams(params);
  const { distance, shingleSize, hash, weighting, normalizerVersion } = params;
  return Object.freeze({ distance, shingleSize, hash, weighting, normalizerVersion });
}
