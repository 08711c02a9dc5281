/** The library API of neardup, exported by name. */
export { loadConfig, parseConfig, defaultConfig, configSchema } from './config.js';
export type { Config, PartialConfig, LoadConfigOptions } from './config.js';
export {
  NeardupError, ValidationError, InputError, ConfigError, IndexError, ParameterMismatchError, StorageError, CrawlError,
} from './errors.js';
export type * from './types.js';
