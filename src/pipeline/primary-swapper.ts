/**
 * The crawl's primary swap, as the pipeline runs it after each batch's index decisions: a duplicate
 * whose evidence beats its cluster's stored document's takes its place (fingerprint-index/primary-swap.ts),
 * and host mirror evidence is gathered from every verdict, shared with the index's other processes.
 */
import type { Decision } from '../types.js';
import type { PrimaryWeights } from '../primary/choose-primary.js';
import type { PrimarySwapStore, SwapContender } from '../fingerprint-index/primary-swap.js';
import { preferPrimary, type PrimaryContender } from '../primary/prefer-primary.js';
import { HostMirrorEvidence, type ConfirmedMirror } from '../primary/host-mirror-evidence.js';
import { freezeForever, type FaultFreeze } from '../store/fault-freeze.js';
import { urlHost } from '../url/url-host.js';

/** A duplicate that took the place of its cluster's stored document: its corpus line is due, the displaced one's is superseded. */
export interface Swapped {
  readonly id: number;
  readonly replaced: { readonly id: number; readonly url: string };
}

/** A judged page as the swap reads it. */
interface JudgedPage {
  readonly url: string;
  readonly finalUrl: string | null;
}

/** How often a pipeline with the primary swap reads the host mirrors other processes confirmed. */
const mirrorPollMs = 2000;

/** One side of a swap as the primary choice reads it: citations are links from hosts other than both contenders'. */
function contenderOf(row: SwapContender, hosts: readonly (string | null)[], onMirrorHost: boolean): PrimaryContender {
  let inLinks = 0;
  for (const from of row.linkedFrom) {
    const host = urlHost(from);
    if (host !== null && !hosts.includes(host)) inLinks++;
  }
  return {
    id: row.id, url: row.url, finalUrl: row.finalUrl, canonicalUrl: row.canonicalUrl, publishedAt: row.publishedAt,
    lastModified: row.lastModified, textLength: row.textLength ?? undefined, depth: row.depth, inLinks, onMirrorHost,
  };
}

export class PrimarySwapper {
  /** Host mirrors as this pipeline's verdicts show them. */
  private readonly hostMirrors = new HostMirrorEvidence();
  /** Mirrors this pipeline confirmed and has not published yet, and when it last read the others'. */
  private unpublished: ConfirmedMirror[] = [];
  private mirrorsReadAt = 0;
  /** Primary swaps made (counted only for the kill tests' hook). */
  private swapsMade = 0;
  /** Mirrors confirmed since the last takeConfirmed. */
  private confirmedNow: ConfirmedMirror[] = [];
  /** Pages of the current batch that are copies of another host's page, by URL → that host. */
  private readonly copies = new Map<string, string>();

  constructor(
    private readonly swaps: PrimarySwapStore,
    private readonly weights: PrimaryWeights,
    private readonly faultFreeze: FaultFreeze | null,
  ) {}

  /** Documents of `ids` no longer stored (displaced here or by another process). */
  displacedAmong(ids: readonly number[]): Promise<Set<number>> {
    return this.swaps.displacedAmong(ids);
  }

  /**
   * The primary swap of a batch's duplicates (exact or near, a repeated decision included, so that a
   * swap a kill interrupted is made by the next run): each whose evidence beats its cluster's stored
   * document's (prefer-primary.ts) takes its place, and its decision in `judged` becomes `stored` with
   * `replaced`. `judged[j]` is the decision of `pages[positions[j]]`. Returns the swaps made.
   */
  async swapPrimaries(pages: readonly JudgedPage[], positions: readonly number[], judged: Decision[]): Promise<Swapped[]> {
    const swapped = new Map<number, Swapped>();
    for (let j = 0; j < positions.length; j++) {
      const decision = judged[j]!;
      const page = pages[positions[j]!]!;
      const host = urlHost(page.finalUrl ?? page.url);
      if (host !== null && decision.repeated !== true) this.hostMirrors.judged(host);
      if (decision.kind !== 'exact' && decision.kind !== 'near') {
        if (decision.kind === 'similar') this.noteCopy(page, host, urlHost(decision.matchUrl));
        continue;
      }
      const found = await this.swaps.contenders(decision.id);
      if (found === null) continue;
      const storedHost = urlHost(found.stored.finalUrl ?? found.stored.url);
      const hosts = [host, storedHost];
      const stored = contenderOf(found.stored, hosts, storedHost !== null && host !== null && this.hostMirrors.mirrors(storedHost, host));
      const challenger = contenderOf(found.challenger, hosts, host !== null && storedHost !== null && this.hostMirrors.mirrors(host, storedHost));
      const wins = found.sameFingerprint && preferPrimary(stored, challenger, this.weights).challengerWins;
      if (!wins || !(await this.swaps.swap(decision.id, found.stored.id))) {
        this.noteCopy(page, host, storedHost);
        continue;
      }
      this.swapsMade++;
      const hook = this.faultFreeze;
      if (hook !== null && hook.phase === 'swap' && this.swapsMade >= hook.afterStored) freezeForever(`swap after ${this.swapsMade} swaps`);
      const replaced = { id: found.stored.id, url: found.stored.url };
      judged[j] = { kind: 'stored', id: decision.id, replaced };
      swapped.set(decision.id, { id: decision.id, replaced });
      const confirmed = storedHost === null || host === null ? null : this.hostMirrors.copy(storedHost, host);
      if (confirmed !== null) this.confirmed(confirmed);
    }
    return [...swapped.values()];
  }

  /**
   * Shares host mirrors with the other processes of the index (primary-swap.ts): publishes the ones
   * confirmed here, and, every `mirrorPollMs`, adopts the ones others confirmed (a partitioned crawl's
   * mirror host may be crawled by a process that never sees the swaps that show it a mirror).
   */
  async shareMirrors(): Promise<void> {
    for (const m of this.unpublished.splice(0)) await this.swaps.publishMirror(m);
    const now = Date.now();
    if (now - this.mirrorsReadAt < mirrorPollMs) return;
    this.mirrorsReadAt = now;
    for (const m of await this.swaps.sharedMirrors()) {
      const adopted = this.hostMirrors.adopt(m);
      if (adopted !== null) this.confirmedNow.push(adopted);
    }
  }

  /** Mirrors confirmed since the last call. */
  takeConfirmed(): ConfirmedMirror[] {
    const confirmed = this.confirmedNow;
    this.confirmedNow = [];
    return confirmed;
  }

  /** The other host whose page `url` (of the current batch) copies, or null. */
  copyOfHost(url: string): string | null {
    return this.copies.get(url) ?? null;
  }

  /** Forgets the current batch's copies (after its results are handed back). */
  clearCopies(): void {
    this.copies.clear();
  }

  /** A page of `host` is a copy of a page of `of`: host mirror evidence, and the note for the crawl. */
  private noteCopy(page: JudgedPage, host: string | null, of: string | null): void {
    if (host === null || of === null || host === of) return;
    this.copies.set(page.url, of);
    const confirmed = this.hostMirrors.copy(host, of);
    if (confirmed !== null) this.confirmed(confirmed);
  }

  private confirmed(mirror: ConfirmedMirror): void {
    this.confirmedNow.push(mirror);
    this.unpublished.push(mirror);
  }
}
