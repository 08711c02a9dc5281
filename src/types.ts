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
  /**
   * Bottom-k sketch of the feature set (shingle-sketch.ts), for the second stage; present when the
   * analysis was asked for one (AnalyzeOptions.sketchSize).
   */
  readonly sketch?: Uint32Array;
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
  /** Feature-set sketch (TextAnalysis.sketch) for the second stage; without it the document is judged by the k rule only. */
  readonly sketch?: Uint32Array | null;
}

/**
 * What the index decided for a candidate. `repeated`: the URL was judged before (a retried or
 * re-processed page) and this is that earlier decision, nothing new was written — counters count
 * it as no new document.
 */
export type Decision = (
  | {
    readonly kind: 'stored'; readonly id: number;
    /** The stored document this one took the place of, as the better primary of its cluster (the crawl's primary swap). */
    readonly replaced?: { readonly id: number; readonly url: string };
  }
  | { readonly kind: 'exact'; readonly id: number; readonly matchId: number; readonly matchUrl: string; readonly distance: 0 }
  | { readonly kind: 'near'; readonly id: number; readonly matchId: number; readonly matchUrl: string; readonly distance: number }
  | {
    readonly kind: 'similar'; readonly id: number; readonly matchId: number; readonly matchUrl: string; readonly distance: number;
    /** Estimated Jaccard similarity of the feature sets, and containment (the larger direction). */
    readonly similarity: number; readonly containment: number;
  }
  | { readonly kind: 'skipped'; readonly reason: SkipReason }
) & { readonly repeated?: true };

/**
 * Why a page was neither stored nor judged a duplicate: every reason. `truncated`: a body that
 * ends before its own encoding says it does (a compressed stream cut short).
 */
export const SKIP_REASONS = [
  'no-text', 'too-short', 'not-html', 'too-large', 'http-error', 'robots', 'out-of-scope', 'fetch-error', 'decode-error',
  'parse-error', 'truncated',
  // The host could not be reached (its robots.txt: connection refused, DNS failure, timeout, 5xx):
  // not fetched, as RFC 9309 asks, but not a robots.txt rule either.
  'unreachable',
  // A spun copy of a stored page (the cascade's `synonymised` flag, with `cascade.synonymised.action:
  // reject`): rejected before the index, its evidence in the flags table.
  'synonymised',
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
  readonly kind: 'exact' | 'near' | 'similar';
  readonly distance: number;
  readonly matchId: number;
  /** Second stage's estimates (kind `similar`; null otherwise). */
  readonly similarity?: number | null;
  readonly containment?: number | null;
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
  /** Rejected by the second stage. */
  similar: number;
  skipped: number;
  /** Skips by reason. */
  skippedBy: Record<string, number>;
  errors: number;
  /** Stored documents that took the place of a worse primary of their cluster (the crawl's primary swap). */
  replaced?: number;
  /** Flags the cascade (src/cascade/) gave judged pages, by kind (present when the cascade is on). */
  flagged?: Partial<Record<CascadeFlagKind, number>>;
}

// ---------------------------------------------------------------- cascade flags

/**
 * How a page was made, as the cascade of offline filters (src/cascade/) judges it. Flags are not
 * decisions: a flagged page is stored or rejected by the index as any other page.
 */
export const CASCADE_FLAG_KINDS = ['homoglyph', 'generated', 'synonymised', 'compiled'] as const;
export type CascadeFlagKind = (typeof CASCADE_FLAG_KINDS)[number];

/** Words that mix scripts (Latin look-alikes in Cyrillic words or the reverse). */
export interface HomoglyphFlag {
  readonly kind: 'homoglyph';
  /** Words with letters of two scripts, or written wholly in look-alikes of the other script. */
  readonly words: number;
  /** `words` over all words of the text. */
  readonly share: number;
  /** A few such words as they appear in the text. */
  readonly examples: readonly string[];
  /**
   * The same words with their look-alike letters made visible: each letter of another script than
   * the text's written `[<letter> U+<code point> <script>]`, e.g. `p[а U+0430 Cyrillic]per`.
   */
  readonly marked: readonly string[];
}

/** Text a program made (Markov chains, word salad, shuffled sentences), by a decision tree. */
export interface GeneratedFlag {
  readonly kind: 'generated';
  /** Share of generated training texts in the trees' leaves (mean over the bagged trees), 0–1. */
  readonly score: number;
  /** Share of the bagged trees that vote generated (their leaf's share ≥ 0.5), 0–1. */
  readonly confidence: number;
  /** The tests on the way to that leaf, e.g. `cohesionRatio <= 1.21`. */
  readonly path: readonly string[];
  /** The text's feature values, by name. */
  readonly features: Readonly<Record<string, number>>;
}

/** A page whose words differ from a stored page's by synonyms while its grammar stays the same. */
export interface SynonymisedFlag {
  readonly kind: 'synonymised';
  /** The stored page it spins. */
  readonly sourceId: number;
  readonly sourceUrl: string;
  /** Estimated Jaccard similarity of the part-of-speech shingles, 0–1. */
  readonly tagSimilarity: number;
  /** Estimated Jaccard similarity of the word shingles, 0–1. */
  readonly wordSimilarity: number;
  /** The page's distinct content stems absent from the source but synonyms of one of its stems, over all of them. */
  readonly substitutedShare: number;
  /** The page's distinct content stems found in the source or synonyms of one of its stems, over all of them. */
  readonly explainedShare: number;
  /** A few (source stem, page stem) synonym substitutions. */
  readonly examples: readonly (readonly [string, string])[];
}

/** One stored page a compiled page took paragraphs from. */
export interface CompiledSource {
  readonly id: number;
  readonly url: string;
  /** Share of the page's words in paragraphs attributed to this source, 0–1. */
  readonly share: number;
  /** Paragraphs attributed to it (indices in the page). */
  readonly paragraphs: readonly number[];
}

/** A page built from paragraphs of two or more stored pages, none covering it alone. */
export interface CompiledFlag {
  readonly kind: 'compiled';
  /** Sources, largest share first. */
  readonly sources: readonly CompiledSource[];
  /** Share of the page's words attributed to some source, 0–1. */
  readonly coveredShare: number;
  /** The test that attributed paragraphs to sources. */
  readonly test: 'hypergeometric' | 'containment';
}

export type CascadeFlag = HomoglyphFlag | GeneratedFlag | SynonymisedFlag | CompiledFlag;
