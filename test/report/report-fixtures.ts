/**
 * Records for report tests: stored and rejected documents as the index returns them, fingerprints
 * a given number of bits apart, and a real neardup.db built through FingerprintIndex.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import type { Decision, DocumentMeta, Fingerprint, FingerprintParams, RejectedDocument, SkipReason, StoredDocument } from '../../src/types.js';
import { flipBits } from '../helpers/fingerprint-bits.js';

export { flipBits };

export const baseFingerprint: Fingerprint = { hi: 0x12345678, lo: 0x9abcdef0 };

export function storedDoc(id: number, url: string, meta: Partial<DocumentMeta> & { fingerprint?: Fingerprint; textHash?: string } = {}): StoredDocument {
  return { id, url, fingerprint: baseFingerprint, textHash: `h${id}`, ...meta };
}

export function exactDoc(id: number, url: string, match: StoredDocument | RejectedDocument, meta: Partial<DocumentMeta> = {}): RejectedDocument {
  return { id, url, kind: 'exact', distance: 0, matchId: match.id, fingerprint: match.fingerprint, textHash: match.textHash, ...meta };
}

/** A near copy of `match`, `bits` flipped relative to `match`'s fingerprint. */
export function nearDoc(id: number, url: string, match: StoredDocument | RejectedDocument, bits: readonly number[], meta: Partial<DocumentMeta> = {}): RejectedDocument {
  const fingerprint = flipBits(match.fingerprint ?? baseFingerprint, bits);
  return { id, url, kind: 'near', distance: bits.length, matchId: match.id, fingerprint, textHash: `h${id}`, ...meta };
}

export const testParams: FingerprintParams = { distance: 3, shingleSize: 3, hash: 'rabin', weighting: 'unit', normalizerVersion: 1 };

/** One document to put through the real index. */
export interface IndexedPage extends DocumentMeta {
  readonly fingerprint: Fingerprint;
  readonly textHash: string;
  /** Links found on the page. */
  readonly links?: readonly string[];
}

/** Creates `<dir>/neardup.db` (dir made if missing) and feeds the pages through checkAndInsert, in order. */
export function buildDataDir(
  dir: string,
  pages: readonly IndexedPage[],
  skipped: readonly { url: string; reason: SkipReason }[] = [],
): Decision[] {
  mkdirSync(dir, { recursive: true });
  const index = FingerprintIndex.open(join(dir, 'neardup.db'), { params: testParams });
  try {
    const decisions = pages.map(({ links, ...doc }) => {
      const decision = index.checkAndInsert(doc);
      if (links !== undefined && links.length > 0) index.recordLinks(doc.url, links);
      return decision;
    });
    for (const s of skipped) index.recordSkip(s.url, s.reason);
    return decisions;
  } finally {
    index.close();
  }
}
