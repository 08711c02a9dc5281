#!/usr/bin/env node
// The CLI from the TypeScript sources through tsx's loader, for tests and development
// (`npm run neardup -- ...`): no build needed, and never a stale dist/. bin/neardup.js runs the
// compiled CLI that the package ships.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
