/**
 * The crawlee Configuration of a neardup crawl: storage persisted under one folder (the request
 * queue, so that a crawl resumes), never purged on start, warnings and errors only.
 *
 * `systemInfoIntervalMillis`: crawlee measures memory every second by spawning `ps` (ps-tree),
 * which cost about 6% of a crawl's CPU in scripts/bench-crawl.ts. The measurements only steer
 * autoscaling, which a neardup crawl does not use (its concurrency is fixed), so every 10 s is
 * enough to still notice memory pressure.
 */
import { Configuration, LogLevel } from '@crawlee/cheerio';

export function crawleeConfiguration(storageDir: string): Configuration {
  return new Configuration({
    storageClientOptions: { localDataDirectory: storageDir, persistStorage: true },
    persistStorage: true,
    // Never purge: the persisted queue is what makes a crawl resumable.
    purgeOnStart: false,
    logLevel: LogLevel.WARNING,
    systemInfoIntervalMillis: 10_000,
  });
}
