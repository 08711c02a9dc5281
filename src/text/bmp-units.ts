/**
 * Every BMP code unit as one string, at index = its value, with a space in place of each surrogate
 * (lone surrogates are not characters). Tables of per-character classes are built by running a
 * regular expression over it: one match per run of matching characters, instead of one test per
 * code unit (65,536 of them, which a short command's start-up would pay).
 */
export function bmpUnits(): string {
  const units = new Uint16Array(0x10000);
  for (let u = 0; u < 0x10000; u++) units[u] = u >= 0xd800 && u <= 0xdfff ? 0x20 : u;
  // One decode of the array as UTF-16 (valid: no surrogate left), not 16 string concatenations.
  return new TextDecoder('utf-16le').decode(units);
}
