/**
 * Child of open-race.test.ts: waits for the go file, then opens (creating) the index at the path
 * given and closes it. Exit code 0 on success; the one-line error on stderr otherwise.
 */
import { existsSync } from 'node:fs';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { paramsFor } from './index-test-helpers.js';

const [path, goFile] = process.argv.slice(2) as [string, string];
process.stdout.write('ready\n');
const deadline = Date.now() + 60_000;
while (!existsSync(goFile)) {
  if (Date.now() > deadline) throw new Error('the go file never appeared');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}
FingerprintIndex.open(path, { params: paramsFor(3), busyTimeoutMs: 30_000 }).close();
