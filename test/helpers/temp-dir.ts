/** Fresh temporary folders for tests (a fresh database or data folder per test). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty folder under the system's temp folder, named `<prefix>XXXXXX`. */
export function makeTempDir(prefix = 'neardup-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A new empty temp folder and the function that removes it. */
export function tempDir(prefix = 'neardup-test-'): { dir: string; remove: () => void } {
  const dir = makeTempDir(prefix);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
