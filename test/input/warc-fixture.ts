/** Builds small WARC files for tests with warcio's own writer (WARCRecord.create + WARCSerializer). */
import { writeFile } from 'node:fs/promises';
import { WARCRecord, WARCSerializer } from 'warcio';

export interface WarcFixtureRecord {
  readonly type: 'response' | 'request' | 'resource' | 'metadata' | 'warcinfo' | 'revisit';
  readonly url: string;
  /** HTTP status line for response records. @default 'HTTP/1.1 200 OK' */
  readonly statusline?: string;
  readonly httpHeaders?: Record<string, string>;
  /** WARC-Content-Type, for resource records. */
  readonly warcContentType?: string;
  readonly body: string | Uint8Array;
  readonly date?: string;
}

/** Serialises the records (one gzip member per record when `gzip`) and writes them to `path`. */
export async function writeWarc(path: string, records: readonly WarcFixtureRecord[], gzip = false): Promise<void> {
  const parts: Uint8Array[] = [];
  const info = await WARCRecord.createWARCInfo({ filename: 'fixture.warc', warcVersion: 'WARC/1.1' }, { software: 'neardup tests' });
  parts.push(await WARCSerializer.serialize(info, { gzip }));
  for (const r of records) {
    const bytes = typeof r.body === 'string' ? new TextEncoder().encode(r.body) : r.body;
    async function* content() {
      yield bytes;
    }
    const record = await WARCRecord.create({
      url: r.url,
      date: r.date ?? '2024-01-02T03:04:05Z',
      type: r.type,
      warcVersion: 'WARC/1.1',
      ...(r.type === 'response' || r.type === 'request' ? { httpHeaders: r.httpHeaders ?? {}, statusline: r.statusline ?? (r.type === 'request' ? 'GET / HTTP/1.1' : 'HTTP/1.1 200 OK') } : {}),
      ...(r.warcContentType === undefined ? {} : { warcHeaders: { 'Content-Type': r.warcContentType } }),
    }, content());
    parts.push(await WARCSerializer.serialize(record, { gzip }));
  }
  await writeFile(path, Buffer.concat(parts));
}
