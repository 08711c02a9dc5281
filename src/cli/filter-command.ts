/**
 * `neardup filter <results.jsonl|->`: collapses near-duplicate search results of each line's list
 * under the best-ranked one, as strictly as the query's class asks. A bad line is reported on
 * stderr with its number (the first 20; the rest counted) and skipped; the rest are processed
 * (exit 0). Input of which no line at all could be read as a list exits 1. Unreadable input or bad
 * flags exit non-zero.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { loadConfig, type PartialConfig } from '../config.js';
import { InputError, describeValue } from '../errors.js';
import { openInputStream } from '../input/open-input-stream.js';
import { readLines } from '../input/read-lines.js';
import { filterResults } from '../filter/filter-results.js';
import { formatFilteredJson, formatFilteredText } from '../filter/format-filtered-list.js';
import { parseResultList } from '../filter/parse-result-list.js';
import { parseQueryClass, type QueryClass } from '../filter/query-class.js';
import { loadSynonymDictionary } from '../synonyms/synonym-dictionary.js';
import { choiceFlag } from './shared.js';
import { forTerminal, writeErrorLine } from './terminal-text.js';

interface FilterFlags {
  readonly class?: QueryClass;
  readonly format: 'json' | 'text';
  readonly synonyms?: 'on' | 'off';
  readonly synonymFile?: string;
  readonly margin?: number;
  readonly language?: string;
}

/** Bad lines reported one a line on stderr; the rest are only counted. */
const problemsPrinted = 20;

/** One result list may be large; a longer line is reported and skipped. */
const MAX_LINE_BYTES = 64 << 20;

function classFlag(raw: string): QueryClass {
  try {
    return parseQueryClass(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function marginFlag(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidArgumentError(`Expected \`margin\` to be a number 0–1, got ${describeValue(raw)}`);
  }
  return value;
}

function languageFlag(raw: string): string {
  if (!/^(auto|[a-z]{3})$/.test(raw)) throw new InvalidArgumentError(`Expected \`language\` to be auto or an ISO 639-3 code (eng, rus, ...), got ${describeValue(raw)}`);
  return raw;
}

function overridesFrom(flags: FilterFlags): PartialConfig {
  const filter: Record<string, unknown> = {};
  if (flags.synonyms !== undefined) filter.synonyms = flags.synonyms === 'on';
  if (flags.synonymFile !== undefined) filter.synonymFile = flags.synonymFile;
  if (flags.margin !== undefined) filter.criticalMargin = flags.margin;
  if (flags.language !== undefined) filter.language = flags.language;
  return { filter } as PartialConfig;
}

async function openInput(input: string): Promise<Readable> {
  if (input === '-') return process.stdin;
  try {
    // Checked first: openInputStream's read stream would report a missing file as an unhandled error.
    if (!(await stat(input)).isFile()) throw new Error('not a file');
    return await openInputStream(input);
  } catch (error) {
    throw new InputError(`Cannot read \`${input}\`: ${(error as Error).message}`, { cause: error });
  }
}

export function registerFilter(program: Command): void {
  program
    .command('filter')
    .description('collapse near-duplicate search results under the best-ranked one, as strictly as the query class asks')
    .argument('<input>', 'JSONL of {"query","results":[{"url","title","snippet"}...]} in rank order (.gz too), or - for standard input')
    .option('--class <class>', 'use this query class for every line instead of the detected one: a name (informational-natural, ..., exact-phrase) or 1–11 (default: detected)', classFlag)
    .option('--format <format>', 'json: one {"query","class","threshold","results":[...kept, with "duplicates"]} a line; text: readable lists', choiceFlag('format', ['json', 'text'] as const), 'json')
    .option('--synonyms <on|off>', 'compare critical pairs again with synonyms (default: config filter.synonyms, on)', choiceFlag('synonyms', ['on', 'off'] as const))
    .option('--synonym-file <file>', 'user synonym classes, one a line, added to the shipped tables (default: config filter.synonymFile, none)')
    .option('--margin <m>', 'critical margin, relative: a pair with Jaccard in [t × (1 − m), t) gets the synonym pass (default: config filter.criticalMargin, 0.3)', marginFlag)
    .option('--language <code>', 'language of the annotations, ISO 639-3, or auto to detect per list (default: config filter.language, auto)', languageFlag)
    .action(async (input: string, flags: FilterFlags, cmd: Command) => {
      const root = cmd.parent ?? cmd;
      const config = loadConfig({ file: root.opts<{ config?: string }>().config, overrides: overridesFrom(flags) });
      const settings = config.filter;
      const synonyms = settings.synonyms
        ? loadSynonymDictionary({ userFile: settings.synonymFile === '' ? undefined : settings.synonymFile })
        : undefined;
      const format = flags.format === 'text' ? formatFilteredText : formatFilteredJson;
      const stream = await openInput(input);
      let bad = 0;
      let lists = 0;
      try {
        for await (const line of readLines(stream, MAX_LINE_BYTES)) {
          if (line.text !== null && line.text.trim() === '') continue;
          try {
            if (line.text === null) throw new Error(`Expected a line of at most ${MAX_LINE_BYTES} bytes, got ${line.bytes}`);
            const list = parseResultList(line.text);
            const filtered = filterResults(list, { settings, synonyms, queryClass: flags.class });
            if (filtered.unfiltered > 0) {
              writeErrorLine(`line ${line.lineNo}: ${list.results.length} results; the first ${settings.maxResults} filtered, the other ${filtered.unfiltered} passed through unfiltered (config filter.maxResults, NEARDUP_FILTER_MAX_RESULTS)`);
            }
            const text = format(filtered);
            // The text format is for reading: the results' controls are shown, never run. JSON escapes its own.
            process.stdout.write(flags.format === 'text' ? forTerminal(text, true) : text);
            lists++;
          } catch (error) {
            bad++;
            if (bad <= problemsPrinted) writeErrorLine(`line ${line.lineNo}: ${(error as Error).message}`);
          }
        }
      } catch (error) {
        throw new InputError(`Cannot read \`${input}\`: ${(error as Error).message}`, { cause: error });
      }
      if (bad > 0) writeErrorLine(`${bad} bad line${bad === 1 ? '' : 's'} skipped${bad > problemsPrinted ? ` (the first ${problemsPrinted} shown)` : ''}, ${lists} list${lists === 1 ? '' : 's'} filtered`);
      // Nothing read at all is a failure (the wrong file, not a few bad lines in a good one).
      if (bad > 0 && lists === 0) process.exitCode = 1;
    });
}
