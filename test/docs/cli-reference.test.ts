/**
 * docs/cli.md is generated from the CLI's `--help` (scripts/gen-cli-reference.ts): the committed
 * page must be what the CLI prints now, for the program and every command it lists.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliReferencePath, collectHelp, commandNames, renderCliReference } from '../../scripts/gen-cli-reference.js';

describe('docs/cli.md', () => {
  it('is what `--help` prints now (run npx tsx scripts/gen-cli-reference.ts after changing a flag)', async () => {
    const helps = await collectHelp();
    expect(helps.map((h) => h.name)).toEqual(['', 'crawl', 'extract', 'fingerprint', 'compare', 'dedup', 'clusters', 'eval', 'filter']);
    expect(readFileSync(cliReferencePath, 'utf8')).toBe(renderCliReference(helps));
  });

  it('finds the command names in the program help', () => {
    const help = 'Usage: neardup\n\nCommands:\n  crawl [options] <url...>  crawl\n                            more\n  dedup <input...>  x\n  help [command]  help\n';
    expect(commandNames(help)).toEqual(['crawl', 'dedup']);
  });

  it('names every flag the configuration reference says sets a key', () => {
    const cli = readFileSync(cliReferencePath, 'utf8');
    const config = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const flags = [...config.matchAll(/`([a-z]+) (--[a-z-]+)`/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(flags.length).toBeGreaterThan(20);
    for (const [command, flag] of flags) {
      const section = cli.split(`## neardup ${command}\n`)[1]?.split('\n## ')[0] ?? '';
      expect(section, `${command} ${flag}`).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
  });
});
