/**
 * Fetches and caches each origin's robots.txt for one crawl (one fetch per origin, shared by
 * concurrent callers), and answers whether a URL may be fetched.
 *
 * Why not crawlee's `respectRobotsTxtFile`: in crawlee 3.18.1 it fetches robots.txt without a
 * timeout (a slow host stalls every enqueue), with a generated browser User-Agent rather than
 * ours, and treats a server error as "allow all". Here the fetch has a timeout and a size cap,
 * sends our User-Agent, and follows RFC 9309: 4xx → allow all, 5xx or unreachable → disallow all.
 */
import PQueue from 'p-queue';
import { allowAllRobots, disallowAllRobots, parseRobotsTxt, robotsAllows, robotsPolicyFor } from './robots-rules.js';
import type { RobotsPolicy, RobotsRules } from './robots-rules.js';

/** What the cache knows of one origin. */
export interface OriginRobots {
  readonly policy: RobotsPolicy;
  /** Why the rules are what they are: `fetched`, `HTTP 404`, `unreachable: ...`. */
  readonly source: string;
}

export interface RobotsCacheOptions {
  /** Sent as User-Agent; its product token picks the robots.txt group. */
  readonly userAgent: string;
  /** @default 10000 */
  readonly timeoutMs?: number;
  /** robots.txt beyond this is ignored (RFC 9309 asks parsers to read at least 500 KiB). @default 512000 */
  readonly maxBytes?: number;
  /** When false every URL is allowed and nothing is fetched. @default true */
  readonly enabled?: boolean;
  /**
   * robots.txt fetches in flight at once. Each starts with a DNS lookup, which Node runs on libuv's
   * four-thread pool; a page linking to hundreds of unreachable hosts (a lookup may take a resolver
   * timeout of 5 s to fail) would otherwise fill the pool, and the crawl's own page requests would
   * wait behind them for their lookups until they time out. @default 2
   */
  readonly maxConcurrentFetches?: number;
  /** Called once per origin, when its robots.txt has been read (or found missing or unreachable). */
  readonly onOrigin?: (origin: string, robots: OriginRobots) => void;
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    total += Math.min(value.byteLength, room);
    if (total >= maxBytes) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class RobotsCache {
  private readonly origins = new Map<string, Promise<OriginRobots>>();
  /** Origins whose robots.txt has been read: answered without waiting. */
  private readonly known = new Map<string, OriginRobots>();
  private readonly onOrigin: ((origin: string, robots: OriginRobots) => void) | undefined;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly enabled: boolean;
  private readonly fetches: PQueue;

  constructor(options: RobotsCacheOptions) {
    this.fetches = new PQueue({ concurrency: options.maxConcurrentFetches ?? 2 });
    this.userAgent = options.userAgent;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 512_000;
    this.enabled = options.enabled ?? true;
    this.onOrigin = options.onOrigin;
  }

  /** The robots policy of the URL's origin (fetched on first use). */
  forUrl(url: string): Promise<OriginRobots> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return Promise.resolve({ policy: robotsPolicyFor(disallowAllRobots, this.userAgent), source: 'invalid URL' });
    }
    return this.forOrigin(origin);
  }

  /**
   * Whether robots.txt lets us fetch `url`. Synchronous (no promise) once the origin is known,
   * which is the case for nearly every link of a crawl.
   */
  allows(url: string | URL): boolean | Promise<boolean> {
    if (!this.enabled) return true;
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    const known = this.known.get(parsed.origin);
    if (known !== undefined) return robotsAllows(known.policy, parsed);
    return this.forOrigin(parsed.origin).then((robots) => robotsAllows(robots.policy, parsed));
  }

  private forOrigin(origin: string): Promise<OriginRobots> {
    let entry = this.origins.get(origin);
    if (entry === undefined) {
      entry = this.fetches.add(() => this.fetchOrigin(origin)).then((robots) => {
        this.known.set(origin, robots);
        this.onOrigin?.(origin, robots);
        return robots;
      });
      this.origins.set(origin, entry);
    }
    return entry;
  }

  /** Forgets an origin whose robots.txt was unreachable, so that it is fetched again (a seed tried again: seed-retry.ts). */
  forgetUnreachable(url: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return;
    }
    const known = this.known.get(origin);
    if (known === undefined || !known.source.startsWith('unreachable')) return;
    this.known.delete(origin);
    this.origins.delete(origin);
  }

  /** Crawl-delay of the URL's origin in seconds, or null (also null when robots are not obeyed). */
  async crawlDelaySecs(url: string): Promise<number | null> {
    if (!this.enabled) return null;
    return (await this.forUrl(url)).policy.crawlDelaySecs;
  }

  private async fetchOrigin(origin: string): Promise<OriginRobots> {
    const policy = (rules: RobotsRules) => robotsPolicyFor(rules, this.userAgent);
    if (!this.enabled) return { policy: policy(allowAllRobots), source: 'not obeyed' };
    try {
      const response = await fetch(`${origin}/robots.txt`, {
        headers: { 'user-agent': this.userAgent, accept: 'text/plain,*/*;q=0.5' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (response.status >= 200 && response.status < 300) {
        return { policy: policy(parseRobotsTxt(await readCapped(response, this.maxBytes))), source: 'fetched' };
      }
      await response.body?.cancel();
      if (response.status >= 400 && response.status < 500) {
        return { policy: policy(allowAllRobots), source: `HTTP ${response.status}` };
      }
      return { policy: policy(disallowAllRobots), source: `unreachable: HTTP ${response.status}` };
    } catch (error) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      return { policy: policy(disallowAllRobots), source: `unreachable: ${reason}` };
    }
  }
}
