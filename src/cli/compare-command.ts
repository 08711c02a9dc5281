/**
 * `neardup compare <a> <b>`: the Hamming distance of two texts' fingerprints and the verdict at
 * `--distance` k: `near-duplicate` (distance ≤ k) or `distinct`.
 */
import type { Command } from 'commander';
import { ValidationError } from '../errors.js';
import { fingerprintToHex, hammingDistance } from '../fingerprint/fingerprint-codec.js';
import { addFingerprintOptions, analyzeInputFile, configFrom, type FingerprintFlags } from './fingerprint-flags.js';
import { intFlag } from './shared.js';

export function registerCompare(program: Command): void {
  const command = program
    .command('compare')
    .description('print the distance of two texts\' fingerprints and "near-duplicate" or "distinct"')
    .argument('<a>', 'first text file (or - for standard input)')
    .argument('<b>', 'second text file (or - for standard input)')
    .option('--distance <k>', 'near-duplicate threshold k (default: config fingerprint.distance, 3)', intFlag('distance', 0, 31));
  addFingerprintOptions(command)
    .option('--json', 'print {"distance","verdict","threshold","a","b"} as JSON', false)
    .action((a: string, b: string, flags: FingerprintFlags & { readonly distance?: number; readonly json: boolean }, cmd: Command) => {
      if (a === '-' && b === '-') throw new ValidationError('Expected at most one of `a` and `b` to be `-` (standard input)');
      const config = configFrom(cmd, flags);
      const html = flags.html === true;
      const left = analyzeInputFile(a, config, html);
      const right = analyzeInputFile(b, config, html);
      const distance = hammingDistance(left.fingerprint!, right.fingerprint!);
      const threshold = config.fingerprint.distance;
      const verdict = distance <= threshold ? 'near-duplicate' : 'distinct';
      if (flags.json) {
        const side = (x: typeof left) => ({ fingerprint: fingerprintToHex(x.fingerprint!), language: x.language, tokens: x.tokenCount, features: x.featureCount });
        process.stdout.write(`${JSON.stringify({ distance, verdict, threshold, exact: left.textHash === right.textHash, a: side(left), b: side(right) })}\n`);
      } else {
        process.stdout.write(`${distance} ${verdict}\n`);
      }
    });
}
