/**
 * The cascade's settings: the `cascade` section of the configuration (config/default.json), one
 * object per stage with `enabled` and its thresholds.
 */
import type { Config } from '../config.js';

export type CascadeOptions = Config['cascade'];
