/** A full garbage collection from inside a test (V8's gc, exposed at run time), for memory-retention checks. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects twice (a second pass frees what the first one's finalisers released). */
export function collectGarbage(): void {
  gc();
  gc();
}
