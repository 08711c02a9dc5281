/**
 * A stored sketch's head, as this process reads it from PostgreSQL for the second stage's key table
 * (on open and in each catch-up, pg-second-stage.ts): the sketch's length in values (int4,
 * big-endian), then its first values as stored (uint32 little-endian). The length lets the key table's
 * bound (sketch-prefix-bound.ts) know how much of the sketch it does not hold.
 */

/** Bytes before the values. */
export const HEAD_LENGTH_BYTES = 4;

/** SQL of the head of the bytea `column`, with at most `valueBytes` bytes of its values. */
export function sketchHeadSql(column: string, valueBytes: number): string {
  if (!Number.isSafeInteger(valueBytes) || valueBytes < 0 || valueBytes % 4 !== 0) throw new Error(`not a whole number of sketch values: ${valueBytes} bytes`);
  return `int4send(length(${column}) / 4) || substring(${column} from 1 for ${valueBytes})`;
}

/** Values a head holds. */
export function headValues(head: Uint8Array): number {
  if (head.length < HEAD_LENGTH_BYTES || (head.length - HEAD_LENGTH_BYTES) % 4 !== 0) throw new Error(`a sketch head of ${head.length} bytes`);
  return (head.length - HEAD_LENGTH_BYTES) >>> 2;
}

/** Decodes a head's values into `values` (room for headValues(head) of them); returns the whole sketch's length. */
export function readSketchHead(head: Uint8Array, values: Uint32Array): number {
  const n = headValues(head);
  if (n > values.length) throw new Error(`a sketch head of ${n} values, room for ${values.length}`);
  for (let i = 0, at = HEAD_LENGTH_BYTES; i < n; i++, at += 4) values[i] = (head[at]! | (head[at + 1]! << 8) | (head[at + 2]! << 16) | (head[at + 3]! << 24)) >>> 0;
  return ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
}
