/**
 * One file named on the command line (or standard input for `-`), read whole, with a one-line
 * InputError saying why when it cannot be: as UTF-8 text, or as HTML (gunzipped when it starts with
 * the gzip magic bytes, decoded by its declared or sniffed charset).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { InputError, ValidationError } from '../errors.js';
import { decodeHtmlBytes } from './decode-html-bytes.js';

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** `standard input` for `-`, else the path in backquotes (for messages). */
export function describeInputPath(path: string): string {
  return path === '-' ? 'standard input' : `\`${path}\``;
}

function readInputBytes(path: string): Buffer {
  if (path === '') throw new ValidationError('Expected a file path or `-` for standard input, got an empty string');
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === undefined ? (error as Error).message : (READ_ERRORS[code] ?? code);
    throw new InputError(`Cannot read ${describeInputPath(path)}: ${reason}`, { cause: error });
  }
}

/** Reads a file (or standard input for `-`) as UTF-8. */
export function readTextInput(path: string): string {
  return readInputBytes(path).toString('utf8');
}

/** The file's HTML: gunzipped when it starts with the gzip magic bytes, decoded by its declared or sniffed charset. */
export function readHtmlInput(path: string): string {
  let bytes = readInputBytes(path);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new InputError(`Cannot read ${describeInputPath(path)}: not a valid gzip file (${(error as Error).message})`, { cause: error });
    }
  }
  return decodeHtmlBytes(bytes).html;
}
