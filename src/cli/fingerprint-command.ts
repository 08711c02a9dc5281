/**
 * `neardup fingerprint <file|->`: prints the 16 hex digits of a text's simhash (`--html`: the main
 * text of an HTML page). Also the shared input handling of `compare`.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { InputError, NoFeaturesError, ValidationError } from '../errors.js';
import { fingerprintToHex } from '../fingerprint/fingerprint-codec.js';
import { HASH_NAMES } from '../types.js';
import { analyzeHtml, analyzeText, fingerprintParamsFrom } from '../pipeline.js';
import type { HashName, TextAnalysis } from '../types.js';
import { choiceFlag, intFlag } from './shared.js';

/** Flags that change fingerprint values, shared by `fingerprint` and `compare`. */
export interface FingerprintFlags {
  readonly html?: boolean;
  readonly shingleSize?: number;
  readonly hash?: HashName;
}

/** Adds --html, --shingle-size and --hash to a command. */
export function addFingerprintOptions(command: Command): Command {
  return command
    .option('--html', 'the input is HTML: fingerprint its main text (extracted with cheerio)', false)
    .option('--shingle-size <n>', 'words per shingle (default: config fingerprint.shingleSize, 3)', intFlag('shingle-size', 1, 16))
    .option('--hash <name>', `feature hash, ${HASH_NAMES.join('|')} (default: config fingerprint.hash)`, choiceFlag('hash', HASH_NAMES));
}

/** The config with the command's fingerprint flags (and --distance) overlaid. */
export function configFrom(command: Command, flags: FingerprintFlags & { readonly distance?: number }): Config {
  const root = command.parent ?? command;
  return loadConfig({
    file: root.opts<{ config?: string }>().config,
    overrides: {
      fingerprint: {
        ...(flags.shingleSize === undefined ? {} : { shingleSize: flags.shingleSize }),
        ...(flags.hash === undefined ? {} : { hash: flags.hash }),
        ...(flags.distance === undefined ? {} : { distance: flags.distance }),
      },
    },
  });
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** Reads a file (or standard input for `-`) as UTF-8, with a one-line error when it cannot. */
export function readInput(path: string): string {
  if (path === '') throw new ValidationError('Expected a file path or `-` for standard input, got an empty string');
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === undefined ? (error as Error).message : (READ_ERRORS[code] ?? code);
    throw new InputError(`Cannot read ${path === '-' ? 'standard input' : `\`${path}\``}: ${reason}`, { cause: error });
  }
}

/** Reads and analyses one input; throws NoFeaturesError when it has no words. */
export function analyzeInput(path: string, config: Config, html: boolean): TextAnalysis {
  const content = readInput(path);
  const params = fingerprintParamsFrom(config.fingerprint);
  const analysis = html ? analyzeHtml(content, params).analysis : analyzeText(content, params);
  if (analysis.fingerprint === null) {
    const what = path === '-' ? 'standard input' : `\`${path}\``;
    throw new NoFeaturesError(`${what} has no words to fingerprint${html ? ' (no main text found in the HTML)' : ''}`);
  }
  return analysis;
}

export function registerFingerprint(program: Command): void {
  const command = program
    .command('fingerprint')
    .description('print the 64-bit simhash of a text as 16 hex digits')
    .argument('<file>', 'text file to read, or - for standard input');
  addFingerprintOptions(command)
    .option('--json', 'print {"fingerprint","language","tokens","features","textHash"} as JSON', false)
    .action((file: string, flags: FingerprintFlags & { readonly json: boolean }, cmd: Command) => {
      const config = configFrom(cmd, flags);
      const analysis = analyzeInput(file, config, flags.html === true);
      const hex = fingerprintToHex(analysis.fingerprint!);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({
          fingerprint: hex,
          language: analysis.language,
          tokens: analysis.tokenCount,
          features: analysis.featureCount,
          textHash: analysis.textHash,
        })}\n`);
      } else {
        process.stdout.write(`${hex}\n`);
      }
    });
}
