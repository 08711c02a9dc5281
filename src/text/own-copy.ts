/**
 * A copy of `s` that does not share its parent's memory. Tokens are slices of their document, and V8
 * makes a slice of 13 code units or more a view of the parent string: kept as is in a cache, one word
 * would keep its whole document alive until the cache starts over. (Shorter slices are copied by V8.)
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}
