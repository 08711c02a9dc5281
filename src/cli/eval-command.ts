import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the eval command is built.
export function registerEval(program: Command): void {
  program.command('eval').description('(eval: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'eval is not built yet');
  });
}
