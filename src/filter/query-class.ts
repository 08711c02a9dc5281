/**
 * The 11 query classes of the filtering method and the strictness intervals it reports for them
 * (a threshold on the similarity of results set by expert pairwise comparisons; higher = near
 * duplicates collapsed more strictly), grouped into the 5 strictness levels it uses. How a level
 * becomes a similarity threshold is configuration (`filter.thresholds`), see filter-settings.ts.
 */
import { ValidationError, describeValue } from '../errors.js';

export const QUERY_CLASSES = [
  'informational-natural',
  'informational-telegraphic',
  'navigational-natural',
  'navigational-telegraphic',
  'transactional-natural',
  'transactional-telegraphic',
  'general-natural',
  'general-telegraphic',
  'multimedia',
  'service',
  'exact-phrase',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

/** Strictness levels, least strict first. */
export const STRICTNESS_LEVELS = ['minimal', 'low', 'medium', 'high', 'maximal'] as const;
export type StrictnessLevel = (typeof STRICTNESS_LEVELS)[number];

/** The method's strictness interval of each class, in percent. */
export const CLASS_STRICTNESS: Readonly<Record<QueryClass, readonly [number, number]>> = Object.freeze({
  'informational-natural': [70, 90],
  'informational-telegraphic': [30, 90],
  'navigational-natural': [90, 100],
  'navigational-telegraphic': [70, 100],
  'transactional-natural': [10, 30],
  'transactional-telegraphic': [0, 30],
  'general-natural': [30, 70],
  'general-telegraphic': [30, 70],
  multimedia: [0, 10],
  service: [0, 10],
  'exact-phrase': [0, 10],
});

/**
 * The level of an interval: by its midpoint, in bands of the method's own interval edges
 * (0–10, 10–30, 30–70, 70–90, 90–100). Midpoints 5 → minimal; 15, 20 → low; 50, 60 → medium;
 * 80, 85 → high; 95 → maximal.
 */
export function levelOfInterval([low, high]: readonly [number, number]): StrictnessLevel {
  const mid = (low + high) / 2;
  if (mid < 10) return 'minimal';
  if (mid < 30) return 'low';
  if (mid < 70) return 'medium';
  if (mid < 90) return 'high';
  return 'maximal';
}

/** A class named by its name or its number (1–11, the method's order). */
export function parseQueryClass(raw: string): QueryClass {
  const trimmed = raw.trim();
  const byNumber = /^\d+$/.test(trimmed) ? QUERY_CLASSES[Number(trimmed) - 1] : undefined;
  const found = byNumber ?? QUERY_CLASSES.find((c) => c === trimmed.toLowerCase());
  if (found === undefined) {
    throw new ValidationError(`Expected \`class\` to be one of ${QUERY_CLASSES.join('|')} or 1–11, got ${describeValue(raw)}`);
  }
  return found;
}
