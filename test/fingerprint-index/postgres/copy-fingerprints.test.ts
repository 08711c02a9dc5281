import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { copyFingerprints } from '../../../src/fingerprint-index/postgres/copy-fingerprints.js';

/** A protocol message: type byte, int32 length (itself included), payload. */
function message(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
}

function row(id: number, hi: number, lo: number): Buffer {
  const b = Buffer.alloc(26);
  b.writeInt16BE(2, 0);
  b.writeInt32BE(8, 2);
  b.writeUInt32BE(0, 6);
  b.writeUInt32BE(id, 10);
  b.writeInt32BE(8, 14);
  b.writeUInt32BE(hi, 18);
  b.writeUInt32BE(lo, 22);
  return b;
}

const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);
const ROWS: Array<[number, number, number]> = [[1, 0xdeadbeef, 7], [5, 0, 0xffffffff], [4_000_000_000, 0x80000000, 1], [9, 3, 4]];

/**
 * The server's bytes for the COPY: as PostgreSQL frames it (header with the first row, a row a message,
 * the trailer alone) or as one stream cut into messages anywhere (`rechunk`), then what follows it.
 */
function serverBytes(rechunk: number | null): Buffer {
  const stream = Buffer.concat([HEADER, ...ROWS.map(([id, hi, lo]) => row(id, hi, lo)), TRAILER]);
  const data: Buffer[] = [];
  if (rechunk === null) {
    data.push(message('d', Buffer.concat([HEADER, row(...ROWS[0]!)])));
    for (const r of ROWS.slice(1)) data.push(message('d', row(...r)));
    data.push(message('d', TRAILER));
  } else {
    for (let at = 0; at < stream.length; at += rechunk) data.push(message('d', stream.subarray(at, at + rechunk)));
  }
  return Buffer.concat([message('H', Buffer.alloc(7)), message('N', Buffer.from('notice\0')), ...data, message('c', Buffer.alloc(0)), message('C', Buffer.from('COPY 4\0'))]);
}

/** A stand-in for pg's Client and Connection: replays `bytes` in pieces of `piece` bytes on query. */
function fakeClient(bytes: Buffer, piece: number) {
  // pg reports a destroyed socket as a failed query: handleError (then no ReadyForQuery matters).
  const stream = Object.assign(new EventEmitter(), { destroy: (error?: Error) => submitted!.handleError(error ?? new Error('destroyed')) });
  const afterCopy: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => afterCopy.push(chunk));
  let submitted: { handleReadyForQuery(): void; handleError(e: Error): void } | null = null;
  const connection = {
    stream,
    query: () => {
      setImmediate(() => {
        for (let at = 0; at < bytes.length; at += piece) stream.emit('data', bytes.subarray(at, at + piece));
        submitted!.handleReadyForQuery();
      });
    },
  };
  const client = {
    query: (s: { submit(c: unknown): void; handleReadyForQuery(): void; handleError(e: Error): void }) => {
      submitted = s;
      s.submit(connection);
    },
  } as unknown as pg.Client;
  return { client, afterCopy };
}

it('reads (id, fingerprint) rows however the server frames them and the socket splits them, and hands the rest back to pg', async () => {
  for (const rechunk of [null, 1, 3, 26, 27, 1000]) {
    const bytes = serverBytes(rechunk);
    for (const piece of [1, 2, 5, 7, 31, 64, bytes.length]) {
      const { client, afterCopy } = fakeClient(bytes, piece);
      const got: Array<[number, number, number]> = [];
      const count = await copyFingerprints(client, 'COPY', (id, hi, lo) => got.push([id, hi, lo]));
      expect(got, `rechunk ${rechunk}, piece ${piece}`).toEqual(ROWS);
      expect(count).toBe(ROWS.length);
      // pg's own listener gets exactly the bytes after CopyDone: the CommandComplete message.
      expect(Buffer.concat(afterCopy)).toEqual(message('C', Buffer.from('COPY 4\0')));
    }
  }
});

it('fails on rows that are not (id, fingerprint) pairs, and on a COPY cut short', async () => {
  const wrong = Buffer.concat([message('d', Buffer.concat([HEADER, Buffer.from([0, 3, 0, 0, 0, 8]), Buffer.alloc(20)])), message('c', Buffer.alloc(0))]);
  await expect(copyFingerprints(fakeClient(wrong, 1000).client, 'COPY', () => undefined)).rejects.toThrow(/not \(id, fingerprint\)/);
  const cut = Buffer.concat([message('d', Buffer.concat([HEADER, row(1, 2, 3)])), message('c', Buffer.alloc(0))]);
  await expect(copyFingerprints(fakeClient(cut, 1000).client, 'COPY', () => undefined)).rejects.toThrow(/ended in the middle/);
});
