/**
 * The records that pass between stages. Each stage takes one of these and returns another;
 * only the analysis (src/analyze/) and the pipeline (src/pipeline.ts) call the stages in order.
 */

// ---------------------------------------------------------------- fingerprint

/** A 64-bit fingerprint as two unsigned 32-bit halves (hot loops never touch BigInt). */
export interface Fingerprint {
  /** Bits 63..32, an unsigned 32-bit integer. */
  readonly hi: number;
  /** Bits 31..0, an unsigned 32-bit integer. */
  readonly lo: number;
}

/** Feature hash functions. `rabin` is the seed's GF(2) polynomial fingerprint. */
export const HASH_NAMES = ['rabin', 'murmur'] as const;
export type HashName = (typeof HASH_NAMES)[number];

/** How a feature weighs in the simhash counters. */
export const FEATURE_WEIGHTINGS = ['unit', 'count'] as const;
export type FeatureWeighting = (typeof FEATURE_WEIGHTINGS)[number];

/** Everything that changes fingerprint values; stored in each database and checked on open. */
export interface FingerprintParams {
  /** Near-duplicate threshold k (Hamming distance). @default 3 */
  readonly distance: number;
  /** Words per shingle. @default 3 */
  readonly shingleSize: number;
  /** Feature hash. @default chosen by measurement, see README */
  readonly hash: HashName;
  /** Feature weighting in the simhash. @default 'unit' */
  readonly weighting: FeatureWeighting;
  /** Version of the normaliser (homoglyphs, tokens, stop words, stems). Bumped on any change. */
  readonly normalizerVersion: number;
}

/** The result of fingerprinting one text. */
export interface TextAnalysis {
  /** The simhash, or null when the text gave no features (never matches other empty pages). */
  readonly fingerprint: Fingerprint | null;
  /** Hash of the normalised text, hex; equal hashes are exact duplicates. */
  readonly textHash: string;
  /** ISO 639-3 code of the detected language, or 'und'. */
  readonly language: string;
  /** Tokens after normalisation, before stop-word removal. */
  readonly tokenCount: number;
  /** Features (shingles) hashed into the simhash. */
  readonly featureCount: number;
}

// ---------------------------------------------------------------- extraction

/** What extraction takes from one parsed HTML page. */
export interface ExtractedPage {
  /** Page title ('' when none). */
  readonly title: string;
  /** Main text; paragraphs separated by a blank line ('\n\n'). */
  readonly text: string;
  /** Language declared by the page (`<html lang>`), lower case, or null. */
  readonly declaredLanguage: string | null;
  /** Absolute URL of `rel=canonical`, or null. */
  readonly canonicalUrl: string | null;
  /** Publication date the page states (ISO 8601), or null. */
  readonly publishedAt: string | null;
  /** Outgoing links: absolute http(s) URLs, fragments removed, deduplicated, in page order. */
  readonly links: readonly string[];
  /**
   * The links (of `links`) that lie inside the main text: citations, as opposed to navigation and
   * template links. Absent when the producer cannot tell (a JSONL or WARC record without HTML).
   */
  readonly mainLinks?: readonly string[];
}

// ---------------------------------------------------------------- index

/** A recorded link: to, from, and 1 when it lies in the linking page's main text (absent in an index from before that column). */
export type LinkRow = readonly [to: string, from: string, inMain?: number | bigint];

/** Metadata stored with every document the index sees, kept or rejected. */
export interface DocumentMeta {
  /** The URL the document was requested at (or its file path / JSONL id in batch mode). */
  readonly url: string;
  /** The URL after redirects, when different. */
  readonly finalUrl?: string | null;
  readonly title?: string;
  /** ISO 639-3 language code. */
  readonly language?: string;
  /** Length of the main text in characters. */
  readonly textLength?: number;
  /** When the page was fetched or the file read, ms since epoch. */
  readonly fetchedAt?: number;
  readonly canonicalUrl?: string | null;
  /** ISO 8601 publication date stated by the page. */
  readonly publishedAt?: string | null;
  /** Last-Modified header as ISO 8601. */
  readonly lastModified?: string | null;
  /** Crawl depth (0 for seeds), null in batch mode. */
  readonly depth?: number | null;
}

/** A document ready for the index. */
export interface IndexCandidate extends DocumentMeta {
  /** Null when the text gave no features: such a document is recorded as skipped, never matched. */
  readonly fingerprint: Fingerprint | null;
  readonly textHash: string;
}

/** What the index decided for a candidate. */
export type Decision =
  | { readonly kind: 'stored'; readonly id: number }
  | { readonly kind: 'exact'; readonly id: number; readonly matchId: number; readonly matchUrl: string; readonly distance: 0 }
  | { readonly kind: 'near'; readonly id: number; readonly matchId: number; readonly matchUrl: string; readonly distance: number }
  | { readonly kind: 'skipped'; readonly reason: SkipReason };

/** Why a page was neither stored nor judged a duplicate: every reason. */
export const SKIP_REASONS = [
  'no-text', 'too-short', 'not-html', 'too-large', 'http-error', 'robots', 'out-of-scope', 'fetch-error', 'decode-error',
  'parse-error',
  // The host could not be reached (its robots.txt: connection refused, DNS failure, timeout, 5xx):
  // not fetched, as RFC 9309 asks, but not a robots.txt rule either.
  'unreachable',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A stored document as read back from the index. */
export interface StoredDocument extends DocumentMeta {
  readonly id: number;
  readonly fingerprint: Fingerprint;
  readonly textHash: string;
}

/** A rejected duplicate as read back from the index. */
export interface RejectedDocument extends DocumentMeta {
  readonly id: number;
  readonly kind: 'exact' | 'near';
  readonly distance: number;
  readonly matchId: number;
  readonly fingerprint: Fingerprint | null;
  readonly textHash: string;
}

/** A skipped page as read back from the index. */
export interface SkippedPage {
  readonly url: string;
  readonly reason: SkipReason;
  readonly detail: string | null;
  readonly at: number;
}

// ---------------------------------------------------------------- crawl

/** Which URLs a crawl may fetch (see src/crawl/crawl-scope.ts). */
export const SCOPE_MODES = ['host', 'domain', 'any'] as const;
export type ScopeMode = (typeof SCOPE_MODES)[number];

// ---------------------------------------------------------------- pipeline

/** One page or file entering the pipeline. */
export interface PageInput {
  readonly url: string;
  readonly finalUrl?: string | null;
  /** Either html or text is given. */
  readonly html?: string;
  readonly text?: string;
  readonly fetchedAt?: number;
  readonly lastModified?: string | null;
  readonly depth?: number | null;
  /** Extra fields kept as metadata (JSONL input). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Counters the pipeline keeps while running. */
export interface PipelineCounters {
  processed: number;
  stored: number;
  exact: number;
  near: number;
  skipped: number;
  /** Skips by reason. */
  skippedBy: Record<string, number>;
  errors: number;
}
