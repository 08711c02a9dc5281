/**
 * Coherence features of the `generated` stage: how a text's sentences hang together. A person's
 * neighbouring sentences share content words (the topic carried on), later sentences come back to
 * words said before, and sentences open in varied ways; sentences shuffled or stitched from many
 * texts, chains and salads do not (word pairs repeated the way a small model repeats them are
 * counted in repeated-ngram-share.ts).
 *
 * Words are compared by a crude stem, their first STEM_LENGTH code units after a final `s` is dropped
 * (truncation stemming), so that "extract", "extracts" and "extraction" count as one: overlap measured on whole words missed
 * a person's inflected repetitions and flagged real pages whose sentences vary their word forms.
 */
import { sharedCount } from '../fingerprint/shared-count.js';
import { sortedDistinctInPlace } from './shingle-sketch.js';

/** Code units a word is cut to for comparing sentences (truncation stemming: 5 suits English). */
export const STEM_LENGTH = 5;

/**
 * Each distinct word's stem id, or −1 for a word `isContent` rejects (function words): words with
 * the same first STEM_LENGTH code units share an id.
 */
export function contentStemIds(words: readonly string[], isContent: (id: number) => boolean): Int32Array {
  const out = new Int32Array(words.length).fill(-1);
  const stems = new Map<string, number>();
  for (let id = 0; id < words.length; id++) {
    if (!isContent(id)) continue;
    let word = words[id]!;
    // A plural's `s` goes first, so that a short word and its plural ("page", "pages") meet too.
    if (word.length > 3 && word.charCodeAt(word.length - 1) === 0x73) word = word.slice(0, -1);
    const key = word.length > STEM_LENGTH ? word.slice(0, STEM_LENGTH) : word;
    let stem = stems.get(key);
    if (stem === undefined) stems.set(key, (stem = stems.size));
    out[id] = stem;
  }
  return out;
}

/**
 * Per sentence, its content stems as ascending distinct ids (views of one buffer: a sentence's words
 * lie in [from, to) of `ids`, so the regions do not overlap).
 */
export function sentenceStemSets(ids: Int32Array, count: number, sentenceEnds: Int32Array, sentenceCount: number, stemIds: Int32Array): Uint32Array[] {
  const buffer = new Uint32Array(count);
  const sets: Uint32Array[] = [];
  let from = 0;
  for (let s = 0; s < sentenceCount; s++) {
    const to = sentenceEnds[s]!;
    let end = from;
    for (let k = from; k < to; k++) {
      const stem = stemIds[ids[k]!]!;
      if (stem >= 0) buffer[end++] = stem;
    }
    sets.push(sortedDistinctInPlace(buffer.subarray(from, end)));
    from = to;
  }
  return sets;
}

/** Sentences this far apart or more are the "distant" baseline of the cohesion ratio. */
const DISTANT = 3;

function dice(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  return (2 * sharedCount(a, b)) / (a.length + b.length);
}

export interface Coherence {
  /** Mean Dice overlap of neighbouring sentences' stem sets. */
  readonly adjacent: number;
  /** `adjacent` over the mean overlap of distant sentences (smoothed: near 1 when little is shared). */
  readonly ratio: number;
  /** Share of neighbouring sentence pairs that share at least one content stem. */
  readonly linked: number;
  /** Share of the content stems of sentences after the first that an earlier sentence had (given, not new). */
  readonly given: number;
}

/** The coherence of sentences given as stem sets; `stems`: how many stem ids there are. */
export function coherence(sets: readonly Uint32Array[], stems: number): Coherence {
  let adjacentSum = 0;
  let linked = 0;
  const pairs = sets.length - 1;
  for (let i = 0; i < pairs; i++) {
    const shared = sharedCount(sets[i]!, sets[i + 1]!);
    if (shared > 0) linked++;
    const size = sets[i]!.length + sets[i + 1]!.length;
    if (size > 0) adjacentSum += (2 * shared) / size;
  }
  // Distant pairs at a fixed stride, so the cost stays linear in the number of sentences.
  let distantSum = 0;
  let distantCount = 0;
  for (let i = 0; i + DISTANT < sets.length; i++) {
    distantSum += dice(sets[i]!, sets[i + DISTANT]!);
    distantCount++;
    const far = Math.floor((i + sets.length) / 2);
    if (far - i >= DISTANT && far < sets.length) {
      distantSum += dice(sets[i]!, sets[far]!);
      distantCount++;
    }
  }
  const adjacent = pairs > 0 ? adjacentSum / pairs : 0;
  const distant = distantCount > 0 ? distantSum / distantCount : 0;
  return { adjacent, ratio: (adjacent + 0.01) / (distant + 0.01), linked: pairs > 0 ? linked / pairs : 0, given: givenShare(sets, stems) };
}

function givenShare(sets: readonly Uint32Array[], stems: number): number {
  const seen = new Uint8Array(stems);
  let given = 0;
  let total = 0;
  for (const [s, set] of sets.entries()) {
    for (const stem of set) {
      if (s > 0) {
        total++;
        if (seen[stem] === 1) given++;
      }
      seen[stem] = 1;
    }
  }
  return total === 0 ? 0 : given / total;
}

/** Distinct first words of the sentences over the number of sentences (1 when there is one). */
export function sentenceStartVariety(ids: Int32Array, sentenceEnds: Int32Array, sentenceCount: number, distinct: number): number {
  if (sentenceCount === 0) return 0;
  const seen = new Uint8Array(distinct);
  let starts = 0;
  let from = 0;
  for (let s = 0; s < sentenceCount; s++) {
    const first = ids[from]!;
    if (seen[first] === 0) {
      seen[first] = 1;
      starts++;
    }
    from = sentenceEnds[s]!;
  }
  return starts / sentenceCount;
}
