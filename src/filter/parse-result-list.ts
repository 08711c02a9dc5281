/**
 * Validates one input line of `neardup filter`: `{"query": "...", "results": [{"url","title",
 * "snippet"}, ...]}` with results in rank order. Messages say what was expected and what came.
 */
import { ValidationError, describeValue } from '../errors.js';
import type { ResultList, SearchResult } from './filter-results.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return isObject(value) ? 'an object' : describeValue(value);
}

function checkResult(value: unknown, i: number): SearchResult {
  if (!isObject(value)) throw new ValidationError(`Expected \`results[${i}]\` to be an object, got ${describe(value)}`);
  if (typeof value.url !== 'string') throw new ValidationError(`Expected \`results[${i}].url\` to be a string, got ${describe(value.url)}`);
  for (const field of ['title', 'snippet'] as const) {
    const v = value[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new ValidationError(`Expected \`results[${i}].${field}\` to be a string, got ${describe(v)}`);
    }
  }
  const { title, snippet, ...rest } = value;
  return { ...rest, url: value.url, title: typeof title === 'string' ? title : undefined, snippet: typeof snippet === 'string' ? snippet : undefined };
}

/** A parsed result list from a JSON value (e.g. a JSONL line already parsed). */
export function checkResultList(value: unknown): ResultList {
  if (!isObject(value)) throw new ValidationError(`Expected a line to be an object {"query","results"}, got ${describe(value)}`);
  if (typeof value.query !== 'string') throw new ValidationError(`Expected \`query\` to be a string, got ${describe(value.query)}`);
  if (!Array.isArray(value.results)) throw new ValidationError(`Expected \`results\` to be an array, got ${describe(value.results)}`);
  return { query: value.query, results: value.results.map(checkResult) };
}

/** A result list from one JSON line. */
export function parseResultList(line: string): ResultList {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new ValidationError(`Expected a JSON object, got invalid JSON (${(error as Error).message})`, { cause: error });
  }
  return checkResultList(value);
}
