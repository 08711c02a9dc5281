import { describe, expect, it } from 'vitest';
import { escapeControls, forTerminal, redactCredentials } from '../../src/cli/terminal-text.js';

describe('redactCredentials', () => {
  it.each([
    ['postgres://nd:TopSecret99@db.example:5432/x', 'postgres://nd:***@db.example:5432/x'],
    ['postgresql+psycopg2://nd:TopSecret99@db.example/x', 'postgresql+psycopg2://nd:***@db.example/x'],
    ['got `postgres://nd:Top@ss@host:1/x` (string)', 'got `postgres://nd:***@host:1/x` (string)'],
    ['postgres://nd:a@b@c@host', 'postgres://nd:***@host'],
    ['jdbc:postgresql://db:5432/x?user=nd&password=TopSecret99', 'jdbc:postgresql://db:5432/x?user=nd&password=***'],
    ['jdbc:postgresql://nd:TopSecret99@db/x', 'jdbc:postgresql://nd:***@db/x'],
    ['jdbc:oracle:thin:nd/TopSecret99@db:1521:orcl', 'jdbc:oracle:thin:nd/***@db:1521:orcl'],
    ['mysql://db/x?sslpassword=TopSecret99&x=1', 'mysql://db/x?sslpassword=***&x=1'],
    ['host=db user=nd password=TopSecret99 dbname=x', 'host=db user=nd password=*** dbname=x'],
    ['https://api.example/v1?api_key=TopSecret99#x', 'https://api.example/v1?api_key=***#x'],
    ['two: a://u:p1@h1/ and b://v:p2@h2/', 'two: a://u:***@h1/ and b://v:***@h2/'],
  ])('%s', (input, expected) => {
    expect(redactCredentials(input)).toBe(expected);
    expect(redactCredentials(input)).not.toMatch(/TopSecret99|Top@ss|p1|p2/);
  });

  it.each([
    'postgres://nd@db.example:5432/x',
    'Expected the index URL to be postgres://user[:password]@host[:port]/database, got scheme `jdbc:`',
    'https://medium.com/@someone/post',
    'http://127.0.0.1:38101/page?q=1',
    'line 3: Unexpected token } in JSON at position 4',
  ])('leaves text without a secret alone: %s', (text) => {
    expect(redactCredentials(text)).toBe(text);
  });
});

describe('escapeControls', () => {
  it('shows ESC, BEL, CR, C1 and bidirectional overrides as escapes', () => {
    expect(escapeControls('a\x1b[2Jb\x1b]0;title\x07c\rd\u009be\u202ef')).toBe('a\\x1b[2Jb\\x1b]0;title\\x07c\\x0dd\\x9be\\u202ef');
    expect(escapeControls('\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\')).toBe('\\x1b]8;;http://evil/\\x1b\\link\\x1b]8;;\\x1b\\');
  });

  it('keeps line feeds and tabs of a multi-line text only when asked', () => {
    expect(escapeControls('a\n\tb')).toBe('a\\x0a\\x09b');
    expect(escapeControls('a\n\tb', true)).toBe('a\n\tb');
  });

  it('leaves printable text, accents and CJK as they are', () => {
    const text = 'Café — 東京 «ok» ½ 🙂';
    expect(forTerminal(text)).toBe(text);
  });
});
