/**
 * Child process for the WARC reliability tests: reads one WARC with readWarc and prints its
 * entries as JSON lines (kind, position, and url / reason / message), then `done`. Run apart so
 * that a reader that never returns (issue 28, case 1) is killed instead of hanging the test run.
 * Usage: read-warc-child.ts <file.warc[.gz]> [maxDocumentBytes]
 */
import { readWarc } from '../../src/input/read-warc.js';

const [path, max] = process.argv.slice(2);
for await (const entry of readWarc(path!, max === undefined ? {} : { maxDocumentBytes: Number(max) })) {
  const brief = {
    kind: entry.kind,
    position: entry.position,
    ...(entry.kind === 'page' ? { url: entry.input.url, html: entry.input.html } : {}),
    ...(entry.kind === 'skip' ? { url: entry.url, reason: entry.reason } : {}),
    ...(entry.kind === 'ignored' ? { reason: entry.reason } : {}),
    ...(entry.kind === 'problem' ? { message: entry.message } : {}),
  };
  process.stdout.write(`${JSON.stringify(brief)}\n`);
}
process.stdout.write('done\n');
