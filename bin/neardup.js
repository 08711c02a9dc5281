#!/usr/bin/env node
// The installed CLI: the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci`
// and `npm install` run through the `prepare` script). From the sources: scripts/neardup-from-source.js.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write('neardup: dist/ is missing; run `npm run build` in the neardup folder\n');
  process.exitCode = 70;
}
