/**
 * `COPY (SELECT id, <bytea>) TO STDOUT (FORMAT binary)`: each row's id and bytes, for loading the
 * second stage's sketch heads on open (pg-second-stage.ts). Streamed through pg-copy-streams and parsed
 * from its chunks; one short-lived view per row (the values are copied into the key table at once).
 */
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Runs `copySql`, calling `visit(id, bytes)` per row (`bytes` valid during the call only). */
export async function copyIdBytes(client: pg.Client, copySql: string, visit: (id: number, bytes: Uint8Array) => void): Promise<number> {
  let pending: Buffer = Buffer.alloc(0);
  let headerDone = false;
  let ended = false;
  let rows = 0;
  const parse = (chunk: Buffer) => {
    const buf = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    if (!headerDone) {
      if (buf.length < 19) {
        pending = Buffer.from(buf);
        return;
      }
      if (!buf.subarray(0, 11).equals(SIGNATURE)) throw new Error('COPY output is not PostgreSQL binary format');
      at = 19 + buf.readUInt32BE(15);
      headerDone = true;
    }
    while (!ended && buf.length - at >= 2) {
      const fields = buf.readInt16BE(at);
      if (fields === -1) {
        ended = true;
        at += 2;
        break;
      }
      if (fields !== 2) throw new Error(`COPY row with ${fields} fields, expected 2`);
      if (buf.length - at < 18) break;
      if (buf.readInt32BE(at + 2) !== 8 || buf.readUInt32BE(at + 6) !== 0) throw new Error('COPY row id is not a bigint below 2^32');
      const length = buf.readInt32BE(at + 14);
      if (length < 0) throw new Error('COPY row with null bytes');
      if (buf.length - at < 18 + length) break;
      visit(buf.readUInt32BE(at + 10), buf.subarray(at + 18, at + 18 + length));
      rows++;
      at += 18 + length;
    }
    pending = at === buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(at));
  };
  const stream = client.query(copyTo(copySql));
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      try {
        parse(chunk);
      } catch (error) {
        stream.destroy(error as Error);
      }
    });
    stream.on('error', reject);
    stream.on('end', resolve);
  });
  if (!ended || pending.length !== 0) throw new Error('COPY output ended in the middle of a row');
  return rows;
}
