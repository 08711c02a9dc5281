/**
 * Version of everything that turns text into features: Unicode normalisation, the homoglyph table,
 * the tokeniser, language detection, stop-word lists and stemmers, shingling and feature hashing.
 * It is stored with every index (FingerprintParams.normalizerVersion); bump it on any change that
 * can move a fingerprint, so that an index built with the old rules refuses to open.
 *
 * 1: language detected on the first 256 normalised characters.
 * 2: language detected on the tokens (detectTokenLanguage), so that the fingerprint depends on the
 *    token sequence alone (spacing and punctuation had changed the language, hence the stems).
 * 3: default-ignorable code points (soft hyphen, ZWSP, ZWNJ/ZWJ, word joiner…) removed; the
 *    language decided on a sample spread over the whole text (spreadTokenSample), not its first
 *    256 characters; in a text without blank lines each line break ends a paragraph (issue 25).
 */
export const NORMALIZER_VERSION = 3;
