/**
 * A fault-injection hook for the kill -9 tests (test/reliability/kill-resume.test.ts and
 * scripts/fault-crawl.ts): with `NEARDUP_FAULT_FREEZE=<n>[:before-corpus|:after-corpus]` set, the
 * thread that writes corpus lines stops for good once this process has stored its n-th new
 * document — after the index committed it and before its corpus line (`before-corpus`, the
 * default), or after the line (`after-corpus`) — and says so on stderr. The rest of the process
 * (the crawler, the analysis workers, crawlee's queue) keeps running until the harness kills it,
 * so the kill is certain whatever the machine's speed and still lands while work is in flight.
 * Unset (every normal run), it costs one comparison per corpus append.
 */
import { writeSync } from 'node:fs';
import { ValidationError } from '../errors.js';

/** Where the freeze happens relative to the corpus append of the n-th new stored document. */
/** `swap`: after the n-th primary swap committed in the index, before its corpus lines (src/pipeline.ts). */
export type FaultFreezePhase = 'before-corpus' | 'after-corpus' | 'swap';

export interface FaultFreeze {
  /** New stored documents (corpus lines due in this process) before the freeze; at least 1. */
  readonly afterStored: number;
  readonly phase: FaultFreezePhase;
}

/** The environment variable read by {@link faultFreezeFromEnv}. */
export const FAULT_FREEZE_ENV = 'NEARDUP_FAULT_FREEZE';

/** The line written to stderr when the hook freezes (the harness waits for it). */
export const FAULT_FREEZE_MESSAGE = 'neardup: fault hook: frozen';

/** The hook asked for by the environment, or null (no hook). */
export function faultFreezeFromEnv(env: NodeJS.ProcessEnv = process.env): FaultFreeze | null {
  const raw = env[FAULT_FREEZE_ENV];
  if (raw === undefined || raw === '') return null;
  const match = /^(\d+)(?::(before-corpus|after-corpus|swap))?$/.exec(raw);
  const afterStored = match === null ? NaN : Number(match[1]);
  if (match === null || !Number.isSafeInteger(afterStored) || afterStored < 1) {
    throw new ValidationError(`Expected \`${FAULT_FREEZE_ENV}\` to be <n>[:before-corpus|:after-corpus|:swap] with n ≥ 1, got \`${raw}\``);
  }
  return { afterStored, phase: (match[2] ?? 'before-corpus') as FaultFreezePhase };
}

/** Writes the hook's line synchronously, then blocks this thread until the process is killed. */
export function freezeForever(detail: string): never {
  writeSync(2, `${FAULT_FREEZE_MESSAGE} ${detail}\n`);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0);
}
