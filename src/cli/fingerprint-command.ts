/** `neardup fingerprint <file|->`: prints the 16 hex digits of a text's simhash (`--html`: the main text of an HTML page). */
import type { Command } from 'commander';
import { fingerprintToHex } from '../fingerprint/fingerprint-codec.js';
import { addFingerprintOptions, analyzeInputFile, configFrom, type FingerprintFlags } from './fingerprint-flags.js';

export function registerFingerprint(program: Command): void {
  const command = program
    .command('fingerprint')
    .description('print the 64-bit simhash of a text as 16 hex digits')
    .argument('<file>', 'text file to read, or - for standard input');
  addFingerprintOptions(command)
    .option('--json', 'print {"fingerprint","language","tokens","features","textHash"} as JSON', false)
    .action((file: string, flags: FingerprintFlags & { readonly json: boolean }, cmd: Command) => {
      const config = configFrom(cmd, flags);
      const analysis = analyzeInputFile(file, config, flags.html === true);
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
