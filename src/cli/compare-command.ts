import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the compare command is built.
export function registerCompare(program: Command): void {
  program.command('compare').description('(compare: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'compare is not built yet');
  });
}
