#!/usr/bin/env node
/**
 * neardup's command line: parses flags, builds the config, calls the pipeline or the report,
 * and turns errors into one line and a non-zero exit code. No logic of its own.
 */
import { Command, CommanderError } from 'commander';
import { reportError } from './cli/shared.js';
import { writeErrorLine } from './cli/terminal-text.js';
import { registerCommands } from './cli/register-commands.js';

/** The program with the commands `argv` needs (each command's module is loaded only when used). */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('neardup')
    .description('Near-duplicate detection for web crawls: main text, 64-bit simhash, SQLite index')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      // commander's own errors (unknown option, missing argument, a flag's bad value) as neardup's:
      // one line, `neardup: ` first, the input it echoes made safe for the terminal.
      outputError: (s) => writeErrorLine(`${s.trim().replace(/^error: /, '')} (run with --help for usage)`),
    })
    .option('--config <file>', 'JSON file overlaid on config/default.json (also NEARDUP_CONFIG)');
  await registerCommands(program, argv);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const program = await buildProgram(argv);
    for (const cmd of program.commands) cmd.exitOverride();
    await program.parseAsync([...argv], { from: 'user' });
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its one-line message (or the help / version text).
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportError(error);
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
