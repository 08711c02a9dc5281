import type { Command } from 'commander';
import { NeardupError } from '../errors.js';

// Placeholder until the crawl command is built.
export function registerCrawl(program: Command): void {
  program.command('crawl').description('(crawl: not built yet)').action(() => {
    throw new NeardupError('E_TODO', 'crawl is not built yet');
  });
}
