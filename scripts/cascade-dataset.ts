/**
 * The dev pages' hand-made texts (article-benchmark-dev, MIT), with their languages, for the
 * cascade's training and evaluation scripts. The folder comes from `--dataset`, else
 * NEARDUP_DEV_DATASET, else ../shared/datasets/article-benchmark-dev beside the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';

export interface DevText {
  readonly id: string;
  readonly url: string;
  readonly text: string;
  readonly language: string;
}

const here = new URL('.', import.meta.url).pathname;

export function defaultDatasetPath(): string {
  return process.env.NEARDUP_DEV_DATASET ?? resolve(here, '../../shared/datasets/article-benchmark-dev');
}

/** The dataset's texts sorted by id; exits with a one-line reason when the folder is missing. */
export function loadDevTexts(dataset: string, script: string): DevText[] {
  const truthPath = join(dataset, 'ground-truth.json');
  if (!existsSync(truthPath)) {
    process.stderr.write(`${script}: the dev data set is missing: expected ${truthPath} (give --dataset <dir> or NEARDUP_DEV_DATASET)\n`);
    process.exit(2);
  }
  const truth = JSON.parse(readFileSync(truthPath, 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.keys(truth).sort().map((id) => {
    const text = truth[id]!.articleBody.trim();
    return { id, url: truth[id]!.url, text, language: detectLanguage(normalizeText(text)) };
  });
}

/** Whitespace-separated words of a text. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((t) => t !== '').length;
}

/** Deterministic Fisher–Yates shuffle. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Splits texts into train and held-out parts per language (about `trainShare` of each language to train). */
export function splitByLanguage(texts: readonly DevText[], trainShare: number, random: () => number): { train: DevText[]; test: DevText[] } {
  const train: DevText[] = [];
  const test: DevText[] = [];
  const languages = [...new Set(texts.map((t) => t.language))].sort();
  for (const language of languages) {
    const mine = shuffled(texts.filter((t) => t.language === language), random);
    const cut = Math.round(mine.length * trainShare);
    train.push(...mine.slice(0, cut));
    test.push(...mine.slice(cut));
  }
  return { train, test };
}
