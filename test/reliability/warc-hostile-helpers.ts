/** Shared by the WARC reliability tests (issue 28, cases 1, 6, 7): fixtures and a reader in a child process. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WarcFixtureRecord } from '../input/warc-fixture.js';

const CHILD = fileURLToPath(new URL('./read-warc-child.ts', import.meta.url));

/** One entry as the child prints it. */
export interface ChildEntry {
  readonly kind: 'page' | 'skip' | 'ignored' | 'problem';
  readonly position: string;
  readonly url?: string;
  readonly html?: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ChildRead {
  /** False when the reader did not finish: killed, or it failed. */
  readonly finished: boolean;
  readonly entries: ChildEntry[];
  readonly stderr: string;
}

/**
 * Reads a WARC in a child process. A reader that loops forever is killed after `killAfterMs`:
 * the bound only makes a hang end the test (as a failure) instead of the run; a reader that works
 * finishes these small files in well under a second.
 */
export function readWarcInChild(path: string, maxDocumentBytes?: number, killAfterMs = 60_000): Promise<ChildRead> {
  const args = ['--import', 'tsx', CHILD, path, ...(maxDocumentBytes === undefined ? [] : [String(maxDocumentBytes)])];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: killAfterMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20 }, (_error, stdout, stderr) => {
      const lines = stdout.split('\n').filter((l) => l !== '');
      const finished = lines.at(-1) === 'done';
      const entries = lines.filter((l) => l !== 'done').map((l) => JSON.parse(l) as ChildEntry);
      resolve({ finished, entries, stderr });
    });
  });
}

export const htmlPage = (title: string, words = 40): string => {
  const body = Array.from({ length: words }, (_, i) => `${title.toLowerCase()}${i}`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><p>${title} ${body}</p></body></html>`;
};

export const htmlResponse = (url: string, title: string): WarcFixtureRecord => ({
  type: 'response', url, httpHeaders: { 'Content-Type': 'text/html; charset=utf-8' }, body: htmlPage(title),
});
