/**
 * Version of everything that turns text into features: Unicode normalisation, the homoglyph table,
 * the tokeniser, language detection, stop-word lists and stemmers, shingling and feature hashing.
 * It is stored with every index (FingerprintParams.normalizerVersion); bump it on any change that
 * can move a fingerprint, so that an index built with the old rules refuses to open.
 */
export const NORMALIZER_VERSION = 1;
