import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the clusters command is built.
export function registerClusters(program: Command): void {
  program.command('clusters').description('(clusters: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'clusters is not built yet');
  });
}
