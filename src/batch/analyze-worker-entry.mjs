// Worker entry while neardup runs from TypeScript sources: worker threads do not inherit the
// parent's tsx loader (neither from register() nor from --import in the worker's execArgv), so
// the worker registers tsx itself before loading the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./analyze-worker.ts');
