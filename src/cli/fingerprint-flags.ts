/**
 * The flags that change fingerprint values, shared by `fingerprint` and `compare`, and the config
 * they give; and the one input of those commands, read and analysed.
 */
import type { Command } from 'commander';
import { analyzeDocument } from '../analyze/analyze-document.js';
import { fingerprintParamsFrom } from '../analyze/analyze-text.js';
import { loadConfig, type Config } from '../config.js';
import { describeInputPath, readTextInput } from '../input/read-input-file.js';
import { HASH_NAMES, type HashName, type TextAnalysis } from '../types.js';
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

/** Reads and analyses one input file (or `-`); NoFeaturesError when it has no words. */
export function analyzeInputFile(path: string, config: Config, html: boolean): TextAnalysis {
  return analyzeDocument(readTextInput(path), fingerprintParamsFrom(config.fingerprint), html, describeInputPath(path));
}
