/**
 * The SQLite cascade tables keep a record without a URL of its own: a page read back carries its
 * document's URL. A table made by an earlier release (with a `url` column) is still written and
 * read through that column.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cascadeRecord } from '../../src/cascade/cascade-record.js';
import { SqliteCascadeTables } from '../../src/cascade/sqlite-cascade-tables.js';

const text = 'The river rose overnight after three days of heavy rain in the hills above the town, and the bridge was closed.';
const record = cascadeRecord(text, 'eng');
let db: Database.Database;

function withDocuments(): Database.Database {
  const made = new Database(':memory:');
  made.exec('CREATE TABLE documents (id INTEGER PRIMARY KEY, url TEXT NOT NULL)');
  made.prepare('INSERT INTO documents (id, url) VALUES (?, ?)').run(7, 'http://a.test/page');
  return made;
}

afterEach(() => db?.close());

describe('SqliteCascadeTables', () => {
  it('stores a record without its URL and reads it back with the document\'s URL', () => {
    db = withDocuments();
    const tables = new SqliteCascadeTables(db);
    tables.put({ id: 7, url: 'http://a.test/page', record });
    const columns = (db.prepare('PRAGMA table_info(cascade_records)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(['doc_id', 'record']);
    // A new connection's tables: nothing kept in memory, the row is read.
    const reader = new SqliteCascadeTables(db);
    const page = reader.get(7)!;
    expect(page.url).toBe('http://a.test/page');
    expect([...page.record.shingles]).toEqual([...record.shingles]);
    expect(reader.get(8)).toBeUndefined();
  });

  it('keeps writing and reading the url column of a table an earlier release made', () => {
    db = withDocuments();
    db.exec('CREATE TABLE cascade_records (doc_id INTEGER PRIMARY KEY, url TEXT NOT NULL, record BLOB NOT NULL)');
    new SqliteCascadeTables(db).put({ id: 9, url: 'http://b.test/no-document-row', record });
    expect(db.prepare('SELECT url FROM cascade_records WHERE doc_id = 9').pluck().get()).toBe('http://b.test/no-document-row');
    expect(new SqliteCascadeTables(db).get(9)!.url).toBe('http://b.test/no-document-row');
  });
});
