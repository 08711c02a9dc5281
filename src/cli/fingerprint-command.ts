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
    .option('--json', 'print {"fingerprint","language","tokens","features","textHash","flags"} as JSON (flags: the cascade\'s homoglyph and generated flags, with evidence)', false)
    .action(async (file: string, flags: FingerprintFlags & { readonly json: boolean }, cmd: Command) => {
      const config = configFrom(cmd, flags);
      if (flags.json) {
        // The cascade's own stages only here: the plain hex output stays as cheap as before.
        const { analysis, flags: cascadeFlags } = await (await import('./file-cascade.js')).analyzeFileWithCascade(file, config, flags.html === true);
        process.stdout.write(`${JSON.stringify({
          fingerprint: fingerprintToHex(analysis.fingerprint!),
          language: analysis.language,
          tokens: analysis.tokenCount,
          features: analysis.featureCount,
          textHash: analysis.textHash,
          flags: cascadeFlags,
        })}\n`);
      } else {
        const analysis = await analyzeInputFile(file, config, flags.html === true);
        process.stdout.write(`${fingerprintToHex(analysis.fingerprint!)}\n`);
      }
    });
}
