import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the fingerprint command is built.
export function registerFingerprint(program: Command): void {
  program.command('fingerprint').description('(fingerprint: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'fingerprint is not built yet');
  });
}
