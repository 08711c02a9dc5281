import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the extract command is built.
export function registerExtract(program: Command): void {
  program.command('extract').description('(extract: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'extract is not built yet');
  });
}
