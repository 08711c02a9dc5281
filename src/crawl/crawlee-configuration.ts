/**
 * The crawlee Configuration of a neardup crawl: crawlee's storage in memory (the request queue is
 * made durable by neardup's own journal, see frontier-journal.ts), warnings and errors only.
 *
 * `systemInfoIntervalMillis`: crawlee measures memory every second by spawning `ps` (ps-tree),
 * which cost about 6% of a crawl's CPU in scripts/bench-crawl.ts. The measurements only steer
 * autoscaling, which a neardup crawl does not use (its concurrency is fixed), so every 10 s is
 * enough to still notice memory pressure.
 */
import { Configuration, LogLevel } from '@crawlee/cheerio';

export function crawleeConfiguration(storageDir: string): Configuration {
  return new Configuration({
    storageClientOptions: { localDataDirectory: storageDir, persistStorage: false, writeMetadata: false },
    persistStorage: false,
    // Nothing of crawlee's own is kept between runs; never purge the folder (it holds the journal).
    purgeOnStart: false,
    logLevel: LogLevel.WARNING,
    systemInfoIntervalMillis: 10_000,
  });
}
