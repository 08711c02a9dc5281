// Worker entry while neardup runs from TypeScript sources: worker threads do not inherit the
// parent's tsx loader, so the worker registers tsx itself before loading the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import('./dedup-worker.ts');
