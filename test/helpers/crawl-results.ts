/**
 * Reads back what a crawl (or a batch dedup) left in a data folder, for assertions: the stored,
 * rejected and skipped pages from neardup.db, and the lines of corpus.jsonl.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { corpusFileName, databaseFileName } from '../../src/store/data-folder.js';
import { fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import type { CorpusRecord } from '../../src/store/corpus-writer.js';
import type { RejectedDocument, SkippedPage, StoredDocument } from '../../src/types.js';

export interface CrawlResults {
  readonly stored: ReadonlyMap<string, StoredDocument>;
  /** Rejected URL → the document and the URL of the stored document it duplicates. */
  readonly rejected: ReadonlyMap<string, RejectedDocument & { readonly matchUrl: string }>;
  readonly skipped: ReadonlyMap<string, SkippedPage>;
  /** corpus.jsonl, one record a line, in file order. */
  readonly corpus: readonly CorpusRecord[];
  /** The raw text of corpus.jsonl. */
  readonly corpusText: string;
}

export function readCrawlResults(dataDir: string, config: Config): CrawlResults {
  const index = FingerprintIndex.open(join(dataDir, databaseFileName), { params: fingerprintParamsFrom(config.fingerprint), readonly: true });
  try {
    const stored = new Map<string, StoredDocument>();
    const byId = new Map<number, string>();
    for (const doc of index.stored()) {
      stored.set(doc.url, doc);
      byId.set(doc.id, doc.url);
    }
    const rejected = new Map<string, RejectedDocument & { matchUrl: string }>();
    for (const doc of index.rejected()) rejected.set(doc.url, { ...doc, matchUrl: byId.get(doc.matchId) ?? `#${doc.matchId}` });
    const skipped = new Map<string, SkippedPage>();
    for (const page of index.skipped()) skipped.set(page.url, page);
    const path = join(dataDir, corpusFileName);
    const corpusText = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const corpus = corpusText.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CorpusRecord);
    return { stored, rejected, skipped, corpus, corpusText };
  } finally {
    index.close();
  }
}
