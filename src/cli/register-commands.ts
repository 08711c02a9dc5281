/**
 * The CLI's commands, each in its own module, loaded only when needed: `neardup fingerprint`
 * never loads crawlee, SQLite or cheerio, and `neardup --version` loads no command at all.
 * Loading is the only thing done here; each module's register<Name> defines its flags and action.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

/** Command name → its module's register function, in the order `--help` lists them. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<Register>]> = [
  ['crawl', async () => (await import('./crawl-command.js')).registerCrawl],
  ['extract', async () => (await import('./extract-command.js')).registerExtract],
  ['fingerprint', async () => (await import('./fingerprint-command.js')).registerFingerprint],
  ['compare', async () => (await import('./compare-command.js')).registerCompare],
  ['dedup', async () => (await import('./dedup-command.js')).registerDedup],
  ['clusters', async () => (await import('./clusters-command.js')).registerClusters],
  ['eval', async () => (await import('./eval-command.js')).registerEval],
  ['filter', async () => (await import('./filter-command.js')).registerFilter],
];

/** Program-level flags that take a value (so the value is not taken for a command name). */
const VALUE_FLAGS: ReadonlySet<string> = new Set(['--config']);
const HELP_FLAGS: ReadonlySet<string> = new Set(['-h', '--help']);
const VERSION_FLAGS: ReadonlySet<string> = new Set(['-V', '--version']);

/**
 * Which commands an argument list needs: the named command alone; none for a bare `--version`;
 * every command otherwise (program help, the `help` command, an unknown or missing command, so that
 * commander lists them all or suggests the nearest name).
 */
export function commandsNeeded(argv: readonly string[]): readonly string[] {
  const all = COMMANDS.map(([name]) => name);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (HELP_FLAGS.has(arg)) return all;
    if (VALUE_FLAGS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return all.includes(arg) ? [arg] : all;
  }
  return argv.some((arg) => VERSION_FLAGS.has(arg)) ? [] : all;
}

/** Loads and registers on `program` the commands `argv` needs (see commandsNeeded). */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const needed = new Set(commandsNeeded(argv));
  const registers = await Promise.all(COMMANDS.filter(([name]) => needed.has(name)).map(([, load]) => load()));
  for (const register of registers) register(program);
}
