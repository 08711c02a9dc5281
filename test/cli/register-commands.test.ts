/** Which command modules the CLI loads for an argument list (each command's module only when used). */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsNeeded, registerCommands } from '../../src/cli/register-commands.js';

const all = ['crawl', 'extract', 'fingerprint', 'compare', 'dedup', 'clusters', 'eval', 'filter'];

describe('commandsNeeded', () => {
  it.each([
    [['fingerprint', 'a.txt'], ['fingerprint']],
    [['--config', 'crawl', 'compare', 'a', 'b'], ['compare']],
    [['--config=x.json', 'dedup', 'in/'], ['dedup']],
    [['crawl', '--help'], ['crawl']],
    [['--version'], []],
    [['-V'], []],
    [['--help'], all],
    [['--help', 'crawl'], all],
    [['help', 'crawl'], all],
    [['fingerprnt', 'a.txt'], all],
    [[], all],
  ] as const)('%j → %j', (argv, expected) => {
    expect(commandsNeeded(argv)).toEqual(expected);
  });
});

describe('registerCommands', () => {
  it('registers the one command named, with its flags', async () => {
    const program = new Command('neardup');
    await registerCommands(program, ['compare', 'a.txt', 'b.txt']);
    expect(program.commands.map((c) => c.name())).toEqual(['compare']);
    expect(program.commands[0]!.options.map((o) => o.long)).toContain('--distance');
  });

  it('registers every command, in help order, when no command is named', async () => {
    const program = new Command('neardup');
    await registerCommands(program, ['--help']);
    expect(program.commands.map((c) => c.name())).toEqual(all);
  });
});
