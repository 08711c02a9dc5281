/**
 * neardup inside any crawlee crawler: a Deduplicator judges each page a handler gets — stored,
 * or rejected as an exact or near duplicate of a stored page — on the same pipeline, index and
 * data folder as `neardup crawl`, with the same guarantees:
 *
 * - one decision per URL: a URL judged before (in this run or an earlier one) gets its earlier
 *   decision back, and nothing is written twice;
 * - the decision is committed (database, then the corpus line of a stored page) before `judge`
 *   returns, so a handler that awaits it never loses a decision crawlee marks handled;
 * - resumable: open the same data folder again and go on (crawlee resumes its own queue when its
 *   storage is kept, e.g. CRAWLEE_PURGE_ON_START=false).
 *
 *   const dedup = await Deduplicator.open({ data: './data' });
 *   const crawler = new CheerioCrawler({
 *     async requestHandler(context) {
 *       const verdict = await dedup.judge(context);
 *       if (verdict.kind === 'stored') await pushData({ url: verdict.url });
 *       await dedup.enqueueLinks(context);          // only from pages that are not duplicates
 *     },
 *   });
 *   await crawler.run(['https://example.com/']);
 *   await dedup.close();
 */
import type { CheerioAPI } from 'cheerio';
import { loadConfig, type Config, type PartialConfig } from '../config.js';
import { StorageError, ValidationError, describeValue } from '../errors.js';
import { analyzePage, analyzeParsedPage } from '../analyze/analyze-page.js';
import { analyzeWithCascade, type CascadedPage } from '../cascade/page-cascade.js';
import { Pipeline } from '../pipeline.js';
import type { CascadeFlag, Decision, PageInput, PipelineCounters, SkipReason } from '../types.js';
import {
  isCrawlingContext, readCrawlingContext, readPageLike, type CrawlingContextLike, type PageLike, type PageSource,
} from './read-page-source.js';

export interface DeduplicatorOptions {
  /** Folder of neardup.db and corpus.jsonl, as `neardup crawl --data`; created if missing. @default './data' */
  readonly data?: string;
  /** Settings overlaid on config/default.json, the config file and NEARDUP_* variables (e.g. `{ fingerprint: { distance: 4 } }`). */
  readonly config?: PartialConfig;
  /** A JSON config file overlaid on config/default.json. @default process.env.NEARDUP_CONFIG */
  readonly configFile?: string;
  /** Whether enqueueLinks follows the links of duplicates too. @default config crawl.followDuplicates (false) */
  readonly followDuplicates?: boolean;
}

/** The stored page a duplicate matched. */
export interface VerdictMatch {
  readonly id: number;
  readonly url: string;
}

/**
 * The cascade's flags of a judged page (`homoglyph`, `generated`, `synonymised`, `compiled`, with
 * their evidence), as `neardup crawl` gives them: [] when none, or when the cascade is off.
 */
interface Flagged {
  readonly flags: readonly CascadeFlag[];
}

/** What neardup decided for a page. `duplicate` is true for `exact`, `near` and `similar`. */
export type Verdict = Flagged & (
  | { readonly kind: 'stored'; readonly url: string; readonly duplicate: false; readonly id: number }
  | {
    readonly kind: 'exact' | 'near';
    readonly url: string;
    readonly duplicate: true;
    readonly id: number;
    /** The stored page it duplicates. */
    readonly match: VerdictMatch;
    /** Hamming distance of the fingerprints (0 for `exact`). */
    readonly distance: number;
  }
  | {
    /** The second stage: beyond distance k, but the shingle sets agree (estimated from sketches). */
    readonly kind: 'similar';
    readonly url: string;
    readonly duplicate: true;
    readonly id: number;
    readonly match: VerdictMatch;
    readonly distance: number;
    /** Estimated Jaccard similarity and containment of the two pages' shingle sets. */
    readonly similarity: number;
    readonly containment: number;
  }
  | {
    /** Not judged: too little text, not HTML, unparsable (`reason`); not a duplicate, so its links are followed. */
    readonly kind: 'skipped';
    readonly url: string;
    readonly duplicate: false;
    readonly reason: SkipReason;
    readonly detail: string;
  });

/** A crawling context, or a page given as `{ url, html }` / `{ url, text }`. */
export type JudgeSource = CrawlingContextLike | PageLike;

/** A context that can enqueue links (every crawlee crawling context can). */
export interface EnqueueLinksContext<O, R> extends CrawlingContextLike {
  enqueueLinks(options?: O): Promise<R>;
}

function verdictOf(url: string, decision: Decision, detail: string, flags: readonly CascadeFlag[] = []): Verdict {
  switch (decision.kind) {
    case 'stored':
      return { kind: 'stored', url, duplicate: false, id: decision.id, flags };
    case 'exact':
    case 'near':
      return {
        kind: decision.kind, url, duplicate: true, id: decision.id,
        match: { id: decision.matchId, url: decision.matchUrl }, distance: decision.distance, flags,
      };
    case 'similar':
      return {
        kind: 'similar', url, duplicate: true, id: decision.id, match: { id: decision.matchId, url: decision.matchUrl },
        distance: decision.distance, similarity: decision.similarity, containment: decision.containment, flags,
      };
    default:
      return { kind: 'skipped', url, duplicate: false, reason: decision.reason, detail, flags };
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]!.slice(0, 300);
}

export class Deduplicator {
  readonly config: Config;
  /** Folder of neardup.db and corpus.jsonl. */
  readonly dataDir: string;
  readonly followDuplicates: boolean;
  private readonly pipeline: Pipeline;
  /**
   * Verdicts by crawlee request object, so that judge and enqueueLinks in one handler analyse the
   * page once. Weak: a request crawlee lets go of takes its entry with it.
   */
  private readonly byRequest = new WeakMap<object, Promise<Verdict>>();

  private constructor(pipeline: Pipeline, followDuplicates: boolean) {
    this.pipeline = pipeline;
    this.config = pipeline.config;
    this.dataDir = pipeline.dataDir;
    this.followDuplicates = followDuplicates;
  }

  /** Opens (or creates) a data folder. Close it with {@link close}. */
  static async open(options: DeduplicatorOptions = {}): Promise<Deduplicator> {
    if (typeof options !== 'object' || options === null) throw new ValidationError(`Expected options to be an object, got ${describeValue(options)}`);
    const config = loadConfig({ file: options.configFile, ...(options.config === undefined ? {} : { overrides: options.config }) });
    const followDuplicates = options.followDuplicates ?? config.crawl.followDuplicates;
    if (typeof followDuplicates !== 'boolean') throw new ValidationError(`Expected \`followDuplicates\` to be a boolean, got ${describeValue(followDuplicates)}`);
    return new Deduplicator(await Pipeline.open({ dataDir: options.data ?? './data', config }), followDuplicates);
  }

  /** Counts of what this deduplicator decided since it was opened. */
  get stats(): Readonly<PipelineCounters> {
    return { ...this.pipeline.counters, skippedBy: { ...this.pipeline.counters.skippedBy } };
  }

  /**
   * Judges a page: from a crawlee crawling context (any crawler), or from `{ url, html }` /
   * `{ url, text }`. Resolves once the decision is committed. Rejects only when the data folder
   * cannot be written (the page is then not marked judged, and crawlee's retry may try it again).
   */
  judge(source: JudgeSource): Promise<Verdict> {
    if (isCrawlingContext(source)) {
      const known = this.byRequest.get(source.request);
      if (known !== undefined) return known;
      const { request } = source;
      const verdict = readCrawlingContext(source).then((read) => this.commit(read, bytesOf(source.body)));
      this.byRequest.set(request, verdict);
      // A failed judgement is not kept: crawlee's retry of the request (same object) judges again.
      verdict.catch(() => this.byRequest.delete(request));
      return verdict;
    }
    if (typeof source !== 'object' || source === null) {
      return Promise.reject(new ValidationError(`Expected a crawling context or { url, html } / { url, text }, got ${describeValue(source)}`));
    }
    try {
      return this.commit(readPageLike(source));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * `context.enqueueLinks(options)`, unless the page is a duplicate (a mirror's links lead to
   * more mirror): judges the page first if the handler has not. Resolves to what crawlee's
   * enqueueLinks returns, or null when the links were not followed.
   */
  async enqueueLinks<O, R>(context: EnqueueLinksContext<O, R>, options?: O): Promise<R | null> {
    const verdict = await this.judge(context);
    if (verdict.duplicate && !this.followDuplicates) return null;
    return options === undefined ? context.enqueueLinks() : context.enqueueLinks(options);
  }

  /** Flushes the corpus and closes the database. Safe to call twice. */
  async close(): Promise<void> {
    await this.pipeline.close();
  }

  private async commit(read: PageSource, bodyBytes?: number): Promise<Verdict> {
    const { input } = read;
    if (read.skip !== null) return this.recordSkip(input, read.skip.reason, read.skip.detail);
    // crawl.maxPageBytes bounds the analysis on the crawler's thread, as in `neardup crawl` and `dedup`.
    const bytes = bodyBytes ?? bytesOf(input.html ?? input.text);
    if (bytes !== undefined && bytes > this.config.crawl.maxPageBytes) return this.recordSkip(input, 'too-large', `${bytes} bytes (limit ${this.config.crawl.maxPageBytes}, config crawl.maxPageBytes)`);
    let analyzed: CascadedPage;
    try {
      analyzed = this.analyze(input, read.$);
    } catch (error) {
      if (error instanceof StorageError) throw error;
      // A page that breaks the analysis is recorded, as in `neardup crawl`, never left to stop the crawl.
      this.pipeline.countError();
      return this.recordSkip(input, 'parse-error', firstLine(error));
    }
    // The same stages as `neardup crawl`: the cascade's own half with the analysis, its comparing
    // half in the commit; the flags come back for the verdict (and go into the corpus line).
    const flags: (readonly CascadeFlag[])[] = [];
    const [decision] = await this.pipeline.commitMany([analyzed], flags);
    return verdictOf(input.url, decision!, analyzed.skip?.detail ?? '', flags[0]);
  }

  private analyze(input: PageInput, $: CheerioAPI | null): CascadedPage {
    return analyzeWithCascade(this.config, { stemCache: this.pipeline.stemCache }, (options) =>
      $ === null ? analyzePage(input, this.config, options) : analyzeParsedPage($, input, this.config, options));
  }

  /** Records a skip; the verdict is the URL's decision, the earlier one if it was judged before. */
  private async recordSkip(input: PageInput, reason: SkipReason, detail: string): Promise<Verdict> {
    return verdictOf(input.url, await this.pipeline.recordSkip(input.url, reason, detail), detail);
  }
}

/** Bytes of a page body (a string as UTF-8), or undefined when there is none. */
function bytesOf(body: unknown): number | undefined {
  return typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : undefined;
}
