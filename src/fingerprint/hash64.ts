/**
 * 64-bit feature hashes by name. `rabin` is the seeds' Rabin fingerprint (polynomial over GF(2));
 * `murmur` is the fast alternative built from MurmurHash3's 32-bit functions. Both return the
 * value the simhash uses for that feature string.
 */
import { ValidationError, describeValue } from '../errors.js';
import { HASH_NAMES, type Fingerprint, type HashName } from '../types.js';
import { murmur64 } from './murmur-hash.js';
import { rabin64 } from './rabin-hash.js';

/** Throws a ValidationError unless `name` is a known hash name. */
export function assertHashName(name: unknown): asserts name is HashName {
  if (!(HASH_NAMES as readonly unknown[]).includes(name)) {
    throw new ValidationError(`Expected \`hash\` to be one of ${HASH_NAMES.join('|')}, got ${describeValue(name)}`);
  }
}

/** The 64-bit hash of one feature (a word, or words joined by single spaces). */
export function hash64(feature: string, name: HashName): Fingerprint {
  assertHashName(name);
  return name === 'rabin' ? rabin64(feature) : murmur64(feature);
}
