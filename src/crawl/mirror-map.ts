/**
 * Mirrors mapped within a budget (the crawl's side of src/primary/host-mirror-evidence.ts).
 *
 * By default the links of a duplicate page are not followed: a mirror's links lead to more mirror.
 * But a duplicate of a page on *another* host may be the first page of a mirror (or of the
 * original, when the mirror was met first), and only its links can tell. So the links of such a page
 * are followed while its host is being sampled: until the dedup stage confirms the host a mirror of
 * the other (enough of its pages judged, most of them copies), for at most `samplePages` such pages
 * per host. Once a host is confirmed a mirror, its links are no longer followed, links to it are not
 * queued, and its requests already queued are not fetched: the crawl budget goes elsewhere.
 * `crawl.followDuplicates` still follows everything. Every link left out is counted, with its reason,
 * for the summary.
 */
import type { ConfirmedMirror } from '../primary/host-mirror-evidence.js';

/** Why links were not followed. */
export interface LinksNotFollowed {
  /** In-scope links of duplicate pages (of the same host, or past the sampling budget). */
  readonly duplicate: number;
  /** In-scope links of pages of, or links to, a host confirmed a mirror. */
  readonly mirror: number;
}

/** A confirmed mirror, with what the crawl did not spend on it. */
export interface MappedMirror extends ConfirmedMirror {
  /** Queued requests to it not fetched. */
  readonly requestsSkipped: number;
}

export interface MirrorMapOptions {
  /** Duplicate pages of a host (copies of another host's pages) whose links are followed to sample it. @default 24 */
  readonly samplePages?: number;
  /** Follow everything (crawl.followDuplicates): nothing is left out. @default false */
  readonly followDuplicates?: boolean;
}

export class MirrorMap {
  readonly #samplePages: number;
  readonly #followAll: boolean;
  readonly #mirrors = new Map<string, ConfirmedMirror>();
  readonly #skipped = new Map<string, number>();
  readonly #sampled = new Map<string, number>();
  #duplicate = 0;
  #mirror = 0;

  constructor(options: MirrorMapOptions = {}) {
    this.#samplePages = options.samplePages ?? 24;
    this.#followAll = options.followDuplicates ?? false;
  }

  /** A mirror the dedup stage confirmed. */
  confirm(mirror: ConfirmedMirror): void {
    if (!this.#mirrors.has(mirror.mirror)) this.#mirrors.set(mirror.mirror, mirror);
  }

  /** Whether the crawl stops spending on `host` (a confirmed mirror, and links are not all followed). */
  avoids(host: string | null): boolean {
    return !this.#followAll && host !== null && this.#mirrors.has(host);
  }

  /**
   * Whether to follow the links of a judged page of `host`: `duplicate` when it was rejected,
   * `copyOfHost` the host of its cluster's primary when that is another host. `linkCount` links
   * not followed are counted with their reason.
   */
  follows(host: string | null, duplicate: boolean, copyOfHost: string | null, linkCount: number): boolean {
    if (this.#followAll) return true;
    if (this.avoids(host)) {
      this.#mirror += linkCount;
      return false;
    }
    if (!duplicate) return true;
    if (host !== null && copyOfHost !== null && copyOfHost !== host) {
      const sampled = this.#sampled.get(host) ?? 0;
      if (sampled < this.#samplePages) {
        this.#sampled.set(host, sampled + 1);
        return true;
      }
    }
    this.#duplicate += linkCount;
    return false;
  }

  /** Counts links to a confirmed mirror not queued. */
  notQueued(count: number): void {
    this.#mirror += count;
  }

  /** Counts a queued request to a confirmed mirror not fetched. */
  skipRequest(host: string): void {
    this.#skipped.set(host, (this.#skipped.get(host) ?? 0) + 1);
  }

  get linksNotFollowed(): LinksNotFollowed {
    return { duplicate: this.#duplicate, mirror: this.#mirror };
  }

  /** The mirrors confirmed in this run, in the order confirmed. */
  get mirrors(): MappedMirror[] {
    return [...this.#mirrors.values()].map((m) => ({ ...m, requestsSkipped: this.#skipped.get(m.mirror) ?? 0 }));
  }
}
