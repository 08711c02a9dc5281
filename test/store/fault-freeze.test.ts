import { describe, expect, it } from 'vitest';
import { FAULT_FREEZE_ENV, faultFreezeFromEnv } from '../../src/store/fault-freeze.js';
import { ValidationError } from '../../src/errors.js';

describe('faultFreezeFromEnv', () => {
  it('is off unless NEARDUP_FAULT_FREEZE is set', () => {
    expect(faultFreezeFromEnv({})).toBeNull();
    expect(faultFreezeFromEnv({ [FAULT_FREEZE_ENV]: '' })).toBeNull();
  });

  it.each([
    ['5', { afterStored: 5, phase: 'before-corpus' }],
    ['1:before-corpus', { afterStored: 1, phase: 'before-corpus' }],
    ['12:after-corpus', { afterStored: 12, phase: 'after-corpus' }],
  ])('reads %s', (raw, expected) => {
    expect(faultFreezeFromEnv({ [FAULT_FREEZE_ENV]: raw })).toEqual(expected);
  });

  it.each(['0', '-1', 'x', '3:middle', '2.5', ' 3'])('refuses %j, saying what it expects', (raw) => {
    expect(() => faultFreezeFromEnv({ [FAULT_FREEZE_ENV]: raw })).toThrow(ValidationError);
    expect(() => faultFreezeFromEnv({ [FAULT_FREEZE_ENV]: raw })).toThrow(/Expected `NEARDUP_FAULT_FREEZE` to be <n>/);
  });
});
