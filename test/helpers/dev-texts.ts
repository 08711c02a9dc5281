/**
 * The main texts of the 88 MIT-licensed development pages (test/fixtures/article-benchmark-dev),
 * for tests and benchmarks that need real article text. Read from the repository, never from a
 * folder beside it (a user's clone has none); a benchmark may point at another copy of the data
 * set with its `--dataset` flag.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One page of the data set: its hand-made main text and its URL. */
export interface DevText {
  readonly articleBody: string;
  readonly url: string;
}

const fixture = new URL('../fixtures/article-benchmark-dev/ground-truth.json.gz', import.meta.url);

/**
 * The data set's ground truth, `{ id: { articleBody, url } }`: the committed copy, or
 * `<datasetDir>/ground-truth.json` when a folder is given (an Error saying what is missing if not there).
 */
export function loadDevTruth(datasetDir?: string): Record<string, DevText> {
  if (datasetDir === undefined) return JSON.parse(gunzipSync(readFileSync(fixture)).toString('utf8')) as Record<string, DevText>;
  const file = join(datasetDir, 'ground-truth.json');
  if (!existsSync(file)) {
    throw new Error(`Expected the article-benchmark-dev data set (ground-truth.json) in \`${datasetDir}\`, but ${file} does not exist`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, DevText>;
}

/** Every main text, in the order of the sorted page ids. */
export function devTextsById(): string[] {
  const truth = loadDevTruth();
  return Object.keys(truth).sort().map((id) => truth[id]!.articleBody);
}
