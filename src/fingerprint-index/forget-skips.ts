/**
 * Forgetting the skips of URLs that may succeed when tried again (a seed whose host was down, whose
 * robots.txt was unreachable, or that a bad User-Agent got refused): a URL is judged once, so its
 * skip must go before it can be fetched and judged again (src/crawl/seed-retry.ts). A new file beside
 * the index, SQLite and PostgreSQL alike; the `skipped` counter follows on SQLite.
 */
import type { SkipReason } from '../types.js';
import type { IndexBackend } from './index-backend.js';
import { SqliteIndexBackend } from './sqlite-index-backend.js';
import { PgFingerprintIndex } from './postgres/pg-fingerprint-index.js';

/** A skip forgotten. */
export interface ForgottenSkip {
  readonly url: string;
  readonly reason: SkipReason;
}

/** Removes the skip records of `urls` whose reason is among `reasons`; resolves with the skips forgotten. */
export async function forgetSkips(index: IndexBackend, urls: readonly string[], reasons: readonly SkipReason[]): Promise<ForgottenSkip[]> {
  if (urls.length === 0 || reasons.length === 0) return [];
  if (index instanceof SqliteIndexBackend) {
    return index.index.exclusive((db) => {
      const find = db.prepare('SELECT reason FROM skipped WHERE url = ?').pluck();
      const remove = db.prepare('DELETE FROM skipped WHERE url = ?');
      const forgotten: ForgottenSkip[] = [];
      for (const url of new Set(urls)) {
        const reason = find.get(url) as SkipReason | undefined;
        if (reason === undefined || !reasons.includes(reason)) continue;
        remove.run(url);
        forgotten.push({ url, reason });
      }
      if (forgotten.length > 0) db.prepare("UPDATE counters SET value = value - ? WHERE name = 'skipped'").run(forgotten.length);
      return forgotten;
    });
  }
  if (index instanceof PgFingerprintIndex) {
    const { rows } = await index.session.run((client) =>
      client.query<ForgottenSkip>('DELETE FROM neardup_skipped WHERE url = ANY($1::text[]) AND reason = ANY($2::text[]) RETURNING url, reason', [[...new Set(urls)], reasons]));
    return rows;
  }
  return [];
}
