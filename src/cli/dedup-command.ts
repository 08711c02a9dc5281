import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the dedup command is built.
export function registerDedup(program: Command): void {
  program.command('dedup').description('(dedup: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'dedup is not built yet');
  });
}
