/**
 * Host mirrors as a crawl learns them, page by page: when a host's pages keep turning out to be
 * copies of another host's (a duplicate whose cluster's primary is on the other host, or a stored
 * copy displaced by the other host's page), the host is confirmed a mirror of the other once enough
 * of its pages were judged (`minPages`) and most of them were such copies (`threshold`).
 *
 * The report finds mirrors from the whole index (src/report/find-host-mirrors.ts); this is the
 * crawl's running view of the same thing, used to choose primaries (prefer-primary.ts) and to stop
 * spending the crawl budget on a confirmed mirror (src/crawl/crawl.ts).
 */

/** A confirmed mirror. */
export interface ConfirmedMirror {
  readonly mirror: string;
  readonly original: string;
  /** Pages of the mirror judged copies of the original's, and pages of the mirror judged, when confirmed. */
  readonly copies: number;
  readonly judged: number;
}

export interface HostMirrorEvidenceOptions {
  /** Pages of a host judged copies of another host's before it can be confirmed its mirror. @default 12 */
  readonly minPages?: number;
  /** Share of a host's judged pages that must be copies of the other host's. @default 0.8 */
  readonly threshold?: number;
}

export class HostMirrorEvidence {
  readonly #minPages: number;
  readonly #threshold: number;
  readonly #judged = new Map<string, number>();
  /** `mirror\noriginal` → copies. */
  readonly #copies = new Map<string, number>();
  readonly #confirmed = new Map<string, ConfirmedMirror>();

  constructor(options: HostMirrorEvidenceOptions = {}) {
    this.#minPages = options.minPages ?? 12;
    this.#threshold = options.threshold ?? 0.8;
  }

  /** A page of `host` was judged (stored or duplicate). */
  judged(host: string): void {
    this.#judged.set(host, (this.#judged.get(host) ?? 0) + 1);
  }

  /** A page of `host` is a copy of a page of `of` (another host); returns the mirror confirmed by it, if this confirmed one. */
  copy(host: string, of: string): ConfirmedMirror | null {
    if (host === of) return null;
    const key = `${host}\n${of}`;
    const copies = (this.#copies.get(key) ?? 0) + 1;
    this.#copies.set(key, copies);
    if (this.#confirmed.has(host)) return null;
    const judged = Math.max(this.#judged.get(host) ?? 0, copies);
    const reverse = this.#copies.get(`${of}\n${host}`) ?? 0;
    if (copies < this.#minPages || copies / judged < this.#threshold || reverse * 4 > copies) return null;
    const confirmed = { mirror: host, original: of, copies, judged };
    this.#confirmed.set(host, confirmed);
    return confirmed;
  }

  /** A mirror another process confirmed; returns it when it is new here. */
  adopt(mirror: ConfirmedMirror): ConfirmedMirror | null {
    if (this.#confirmed.has(mirror.mirror)) return null;
    this.#confirmed.set(mirror.mirror, mirror);
    return mirror;
  }

  /** The host `host` is a confirmed mirror of, or null. */
  mirrorOf(host: string): ConfirmedMirror | null {
    return this.#confirmed.get(host) ?? null;
  }

  /** Whether `host` is a confirmed mirror of `of`. */
  mirrors(host: string, of: string): boolean {
    return this.#confirmed.get(host)?.original === of;
  }

  /** Every confirmed mirror, in the order confirmed. */
  confirmed(): ConfirmedMirror[] {
    return [...this.#confirmed.values()];
  }
}
