/**
 * A generated suite of hostile pages for crawl reliability tests, served by node:http on
 * 127.0.0.1 (random port). The same server answers as `localhost` (the "other host" for
 * `--scope host`): every request is logged with its Host header, so a test can prove the
 * crawl never left its scope. Nothing is held in memory beyond a few kilobytes per page:
 * the 10 MB and 50 MB bodies are streamed with back-pressure and generated as they go.
 *
 * Every loop in here is bounded: redirect loops are finite on the server side, stalled
 * responses end after `stallLimitMs`, and the whole server closes itself after `lifetimeMs`.
 *
 *   import { startHostileSite } from '../helpers/hostile-site.js';
 *   const site = await startHostileSite();   // site.url = http://127.0.0.1:<port>/
 *   ... crawl site.url ...; site.requests; site.expectations; await site.close();
 *
 * Run directly (`npx tsx scripts/hostile-site.ts`) it serves until Ctrl-C and prints its URLs.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import iconv from 'iconv-lite';

// ------------------------------------------------------------------ deterministic text

import { seededRandom } from './seeded-random.js';
import { escapeHtml } from '../../src/report/html-escape.js';

export { seededRandom };

const SYLLABLES = [
  'ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'pa', 'do', 'fi', 'gu', 'ha', 'je', 'ko', 'lu', 'ma',
  'no', 'pe', 'qui', 'ra', 'si', 'tu', 've', 'wa', 'xo', 'yu', 'bri', 'cla', 'dro', 'fle', 'gri', 'plo', 'stra', 'tre',
];

/** A vocabulary of pseudo-words (no real language, so no stop word can empty a page). */
function vocabulary(size: number, seed: number): readonly string[] {
  const rnd = seededRandom(seed);
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(rnd() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

const VOCAB = vocabulary(4000, 7);

/**
 * Distinct article text for `seed`: `paragraphs` paragraphs of pseudo-words. Two different seeds
 * give texts whose simhashes are ~32 bits apart, so they never count as near duplicates.
 */
export function makeText(seed: number, paragraphs = 5, wordsPerParagraph = 60): string[] {
  const rnd = seededRandom(0x9e3779b9 ^ Math.imul(seed + 1, 0x85ebca6b));
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const words: string[] = [];
    for (let i = 0; i < wordsPerParagraph; i++) words.push(VOCAB[Math.floor(rnd() * VOCAB.length)]!);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    out.push(`${words.join(' ')}.`);
  }
  return out;
}

const RUSSIAN = (
  'съешь же ещё этих мягких французских булок да выпей чаю широкая электрификация южных губерний даст мощный ' +
  'толчок подъёму сельского хозяйства вечер ночь утро город река лес поле дорога книга письмо окно дверь стол ' +
  'время жизнь человек работа слово место вопрос сторона страна мир земля голова случай машина память учитель ' +
  'ветер солнце берег остров корабль мост площадь улица школа завод музей театр песня картина история правда'
).split(' ');
const JAPANESE = (
  'いろは にほへと ちりぬるを わかよ たれそ つねならむ うゐの おくやま けふこえて あさきゆめみし ゑひもせす 東京 大阪 ' +
  '新聞 記事 天気 電車 学校 先生 会社 仕事 時間 映画 音楽 料理 写真 自転車 図書館 郵便局 病院 公園 海 山 川 空'
).split(' ');

function wordsFrom(list: readonly string[], seed: number, count: number, sep: string): string {
  const rnd = seededRandom(seed * 7919 + 13);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(list[Math.floor(rnd() * list.length)]!);
  return words.join(sep);
}

// ------------------------------------------------------------------ HTML helpers

function page(title: string, paragraphs: readonly string[], extra = '', head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>` +
    `<body><article><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</article>${extra}</body></html>`;
}

/** Percent-decodes where valid, leaving malformed escapes as they are. */
function safeDecode(s: string): string {
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
}

/**
 * The key a request path or URL is matched by: parsed as a WHATWG URL (so `./`, `../` and
 * fragments are resolved the way a crawler resolves them), then percent-decoded where valid.
 * `/odd/with space`, `/odd/with%20space` and `http://127.0.0.1:1/odd/with%20space#x` share a key.
 */
export function routeKey(pathOrUrl: string): string {
  let u: URL;
  try {
    u = new URL(pathOrUrl, 'http://route.invalid/');
  } catch {
    return pathOrUrl;
  }
  return safeDecode(u.pathname + u.search);
}

// ------------------------------------------------------------------ expectations

/** routeKey without the query string. */
export function pathKey(pathOrUrl: string): string {
  const key = routeKey(pathOrUrl);
  const q = key.indexOf('?');
  return q < 0 ? key : key.slice(0, q);
}

/** The families of hostile pages, in the order the site builds them. */
export const HOSTILE_FAMILIES = [
  'article', 'mirror', 'binary', 'huge', 'invalid-utf8', 'charset', 'deep', 'attribute', 'redirect', 'redirect-offhost',
  'redirect-scheme', 'redirect-meta', 'robots', 'empty', 'script-only', 'slow', 'http-error', 'content-type', 'odd-url',
  'hostile-title',
] as const;

/** What a crawl of the suite must do with one in-scope route. */
export type Outcome =
  /** Stored in the corpus (a normal page, an odd URL, a correctly labelled legacy charset). */
  | 'stored'
  /** Recorded as skipped or rejected, never stored (HTTP errors, empty pages, stalls, ...). */
  | 'not-stored'
  /** Either stored or recorded with a reason; must not crash or hang the crawl. */
  | 'recorded'
  /** Must never be requested from the server (robots.txt disallow). */
  | 'not-fetched';

export interface Expectation {
  /** The path as linked from the hub pages (unescaped; see routeKey). */
  readonly path: string;
  /** The family of hostile behaviour, e.g. `charset`, `redirect`, `slow`. */
  readonly family: string;
  readonly outcome: Outcome;
  /** What the page does, for failure messages. */
  readonly note: string;
  /** Skip reasons that fit the page, when it is skipped (advisory; the crawl may choose another). */
  readonly reasons?: readonly string[];
  /** At most one route of a group may be stored (mirrors and near copies of one article). */
  readonly group?: string;
  /** When stored, the stored text must contain these words (whitespace-normalised). */
  readonly expectText?: string;
  /** No stored text anywhere may contain this marker (script bodies, data: URLs, ...). */
  readonly forbiddenText?: string;
  /** Paths the server serves as redirect hops for this route (they are fetched but not recorded). */
  readonly hops?: readonly string[];
}

/** One request the server saw. */
export interface LoggedRequest {
  /** The Host header as sent. */
  readonly host: string;
  /** The raw request target. */
  readonly path: string;
  readonly method: string;
  /** Local address the connection came in on. */
  readonly localAddress: string;
  readonly at: number;
}

export interface HostileSite {
  /** `http://127.0.0.1:<port>/`, the seed. */
  readonly url: string;
  /** `http://localhost:<port>/`: the same server under another host name (out of scope for `--scope host`). */
  readonly hostAltUrl: string;
  readonly port: number;
  /** The in-scope host, `127.0.0.1:<port>`. */
  readonly host: string;
  /** The out-of-scope host, `localhost:<port>`. */
  readonly altHost: string;
  /** Every route the hub pages link to, with what a crawl must do with it. */
  readonly expectations: readonly Expectation[];
  /** Markers that must never appear in anything the crawl stores. */
  readonly forbiddenMarkers: readonly string[];
  /** Requests so far, in arrival order (live array). */
  readonly requests: readonly LoggedRequest[];
  /**
   * What a request path is: `route` (a linked page, see expectations), `hop` (a redirect hop or
   * target served on the way), `robots`, `hub`, or `unknown` (404).
   */
  classify(pathOrUrl: string): 'route' | 'hop' | 'robots' | 'hub' | 'unknown';
  /** Bytes written per request path key (to see where a size cap cut a body off). */
  readonly bytesSent: ReadonlyMap<string, number>;
  /** Stops the server and destroys every open connection, stalled ones included. */
  close(): Promise<void>;
}

export interface HostileSiteOptions {
  /** A stalled response is destroyed after this long. @default 60_000 */
  readonly stallLimitMs?: number;
  /** The server closes itself after this long. @default 900_000 (15 minutes) */
  readonly lifetimeMs?: number;
  /** File a `file:` redirect points at (its content must never be stored). @default '/etc/hostname' */
  readonly secretFile?: string;
  /** Size of the big pages. @default 50 * 1024 * 1024 */
  readonly hugeBytes?: number;
  /** Size of the huge attribute values. @default 10 * 1024 * 1024 */
  readonly hugeAttributeBytes?: number;
  /** Nesting depth of the deep pages. @default 100_000 */
  readonly depth?: number;
}

// ------------------------------------------------------------------ streaming bodies

/** A body part: a string, a buffer, or a string repeated `count` times. */
type Part = string | Buffer | { readonly repeat: string; readonly count: number };

function partsLength(parts: readonly Part[]): number {
  let n = 0;
  for (const p of parts) {
    if (typeof p === 'string') n += Buffer.byteLength(p);
    else if (Buffer.isBuffer(p)) n += p.length;
    else n += Buffer.byteLength(p.repeat) * p.count;
  }
  return n;
}

/** Generates the parts lazily in ~64 KB chunks. */
function partsStream(parts: readonly Part[]): Readable {
  function* chunks(): Generator<Buffer> {
    for (const p of parts) {
      if (typeof p === 'string') yield Buffer.from(p);
      else if (Buffer.isBuffer(p)) yield p;
      else {
        const unit = Buffer.from(p.repeat);
        const perChunk = Math.max(1, Math.floor(65536 / unit.length));
        const block = Buffer.alloc(unit.length * perChunk);
        for (let i = 0; i < perChunk; i++) unit.copy(block, i * unit.length);
        let left = p.count;
        while (left >= perChunk) {
          yield block;
          left -= perChunk;
        }
        if (left > 0) yield block.subarray(0, left * unit.length);
      }
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

// ------------------------------------------------------------------ the site

interface Ctx {
  readonly host: string;
  readonly altHost: string;
  readonly stall: (res: ServerResponse) => void;
  readonly count: (key: string, n: number) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse, ctx: Ctx) => void;

interface Route {
  readonly exp: Expectation;
  readonly handler: Handler;
}

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string | number> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': buf.length, ...headers });
  res.end(buf);
}

function redirect(res: ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location, 'content-type': 'text/html; charset=utf-8', 'content-length': 0 });
  res.end();
}

/** Builds the route table. `port` is needed for absolute off-host links. */
function buildRoutes(port: number, o: Required<HostileSiteOptions>): { routes: Map<string, Route>; hopRoutes: Map<string, Handler>; forbidden: string[] } {
  const routes = new Map<string, Route>();
  const hopRoutes = new Map<string, Handler>();
  const forbidden: string[] = [];
  const alt = `http://localhost:${port}`;
  let seed = 1000;
  const add = (exp: Expectation, handler: Handler) => {
    const key = routeKey(exp.path);
    if (routes.has(key)) throw new Error(`hostile-site: duplicate route ${exp.path}`);
    routes.set(key, { exp, handler });
  };
  const hop = (path: string, handler: Handler) => hopRoutes.set(routeKey(path), handler);
  const articleHtml = (s: number, title: string, extra = '') => page(title, makeText(s), extra);

  // --- normal articles, mirrors (exact copies) and near copies (one word changed).
  for (let i = 0; i < 40; i++) {
    const s = seed++;
    const links = `<nav><a href="/article/${(i + 1) % 40}">next</a> <a href="${alt}/article/${i}">mirror on other host</a> ` +
      `<a href="//localhost:${port}/offhost/${i}">protocol-relative other host</a> <a href="javascript:alert(${i})">js</a> ` +
      `<a href="file:///etc/passwd">file</a> <a href="data:text/html,<p>x</p>">data</a> <a href="mailto:a@b.c">mail</a></nav>`;
    const html = articleHtml(s, `Article ${i}`, links);
    const group = i < 20 ? `article-${i}` : undefined;
    add({ path: `/article/${i}`, family: 'article', outcome: i < 20 ? 'recorded' : 'stored', note: 'normal article', ...(group === undefined ? {} : { group }) },
      (_q, r) => send(r, 200, html));
    if (i < 10) {
      add({ path: `/mirror/${i}`, family: 'mirror', outcome: 'recorded', note: `byte copy of /article/${i}`, group: `article-${i}` },
        (_q, r) => send(r, 200, html));
    } else if (i < 20) {
      const paras = makeText(s);
      paras[2] = paras[2]!.replace(/^\S+/, 'Zzyzxword');
      const near = page(`Article ${i}`, paras, links);
      add({ path: `/near/${i}`, family: 'mirror', outcome: 'recorded', note: `one word changed from /article/${i}`, group: `article-${i}` },
        (_q, r) => send(r, 200, near));
    }
  }

  // --- binary bodies served as text/html.
  const magics: Array<[string, Buffer]> = [
    ['png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
    ['pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')],
    ['zip', Buffer.from('504b0304140000000800', 'hex')],
    ['elf', Buffer.from('7f454c46020101000000000000000000', 'hex')],
    ['gzip-no-encoding', Buffer.from('1f8b0800000000000003', 'hex')],
    ['sqlite', Buffer.from('SQLite format 3\0', 'latin1')],
    ['utf16-bom-garbage', Buffer.from('fffe', 'hex')],
    ['nul-heavy', Buffer.alloc(16)],
    ['jpeg', Buffer.from('ffd8ffe000104a464946', 'hex')],
    ['wasm', Buffer.from('0061736d01000000', 'hex')],
  ];
  for (let i = 0; i < 20; i++) {
    const [name, magic] = magics[i % magics.length]!;
    const rnd = seededRandom(seed++);
    const body = Buffer.alloc(4096 + (i * 997) % 60000);
    for (let j = 0; j < body.length; j++) body[j] = i % 3 === 0 ? (rnd() < 0.3 ? 0 : Math.floor(rnd() * 256)) : Math.floor(rnd() * 256);
    magic.copy(body, 0);
    const ct = i % 2 === 0 ? 'text/html; charset=utf-8' : 'text/html';
    // Binary by the WHATWG MIME Sniffing rule (a control byte in the first 512 bytes) unless a
    // UTF-16 byte-order mark makes it text: random UTF-16 is indistinguishable from CJK-ish text.
    const bom = name === 'utf16-bom-garbage';
    add({ path: `/binary/${name}-${i}`, family: 'binary', outcome: bom ? 'recorded' : 'not-stored', note: `${body.length} random bytes (${name} magic) as ${ct}`, reasons: ['not-html', 'decode-error', 'no-text', 'too-short', 'parse-error'] },
      (_q, r) => send(r, 200, body, { 'content-type': ct }));
  }

  // --- huge pages (streamed): with and without Content-Length, one text node, a gzip bomb.
  const hugeUnit = '<p>lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod</p>\n';
  const hugeCount = Math.ceil(o.hugeBytes / hugeUnit.length);
  const hugeParts: Part[] = ['<!doctype html><html><head><title>Huge</title></head><body>', { repeat: hugeUnit, count: hugeCount }, '</body></html>'];
  const streamTo = (res: ServerResponse, key: string, parts: readonly Part[], headers: Record<string, string | number>, ctx: Ctx, gzip = false) => {
    res.writeHead(200, headers);
    const src = partsStream(parts);
    let counted = 0;
    src.on('data', (c: Buffer) => { counted += c.length; });
    res.on('close', () => { ctx.count(key, counted); src.destroy(); });
    if (gzip) {
      const gz = createGzip({ level: 9 });
      gz.on('error', () => res.destroy());
      src.pipe(gz).pipe(res);
    } else {
      src.pipe(res);
    }
  };
  add({ path: '/huge/with-length', family: 'huge', outcome: 'not-stored', note: `${o.hugeBytes} bytes with Content-Length`, reasons: ['too-large'] },
    (_q, r, ctx) => streamTo(r, '/huge/with-length', hugeParts, { 'content-type': 'text/html; charset=utf-8', 'content-length': partsLength(hugeParts) }, ctx));
  add({ path: '/huge/chunked', family: 'huge', outcome: 'not-stored', note: `${o.hugeBytes} bytes chunked, no Content-Length`, reasons: ['too-large'] },
    (_q, r, ctx) => streamTo(r, '/huge/chunked', hugeParts, { 'content-type': 'text/html; charset=utf-8' }, ctx));
  const oneNode: Part[] = ['<html><body><p>', { repeat: 'word ', count: Math.ceil(o.hugeBytes / 5) }, '</p></body></html>'];
  add({ path: '/huge/one-text-node', family: 'huge', outcome: 'not-stored', note: `${o.hugeBytes} bytes in a single text node, chunked`, reasons: ['too-large'] },
    (_q, r, ctx) => streamTo(r, '/huge/one-text-node', oneNode, { 'content-type': 'text/html' }, ctx));
  add({ path: '/huge/gzip-bomb', family: 'huge', outcome: 'not-stored', note: `${o.hugeBytes} bytes gzip-compressed to ~100 KB (size cap must apply to decoded bytes)`, reasons: ['too-large'] },
    (_q, r, ctx) => streamTo(r, '/huge/gzip-bomb', hugeParts, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, ctx, true));

  // --- invalid UTF-8 labelled UTF-8.
  const badSeqs = [
    Buffer.from([0x80]), Buffer.from([0xbf, 0xbf]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xe0, 0x80, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from([0xfe, 0xff]), Buffer.from([0xe2, 0x82]),
    Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from([0xc3]),
  ];
  for (let i = 0; i < 10; i++) {
    const paras = makeText(seed++);
    const bad = badSeqs[i]!;
    const chunks: Buffer[] = [Buffer.from(`<!doctype html><html><head><meta charset="utf-8"><title>Bad UTF-8 ${i}</title></head><body><article>`)];
    for (const p of paras) {
      const words = p.split(' ');
      chunks.push(Buffer.from('<p>'));
      words.forEach((w, j) => chunks.push(Buffer.from(`${w} `), j % 7 === 3 ? bad : Buffer.alloc(0)));
      chunks.push(Buffer.from('</p>'));
    }
    chunks.push(Buffer.from('</article></body></html>'), i === 9 ? Buffer.from([0xe2, 0x82]) : Buffer.alloc(0));
    const body = Buffer.concat(chunks);
    add({ path: `/badutf8/${i}`, family: 'invalid-utf8', outcome: 'recorded', note: `UTF-8 with ${bad.toString('hex')} sequences`, reasons: ['decode-error'] },
      (_q, r) => send(r, 200, body));
  }

  // --- legacy and mislabelled charsets.
  interface CharsetCase { name: string; enc: string; header: string | null; meta: string | null; lang: 'ru' | 'ja'; outcome: Outcome }
  const cases: CharsetCase[] = [
    { name: 'cp1251-header', enc: 'windows-1251', header: 'windows-1251', meta: null, lang: 'ru', outcome: 'stored' },
    { name: 'cp1251-meta', enc: 'windows-1251', header: null, meta: 'windows-1251', lang: 'ru', outcome: 'stored' },
    { name: 'koi8r-header', enc: 'koi8-r', header: 'koi8-r', meta: null, lang: 'ru', outcome: 'stored' },
    { name: 'koi8r-meta', enc: 'koi8-r', header: null, meta: 'koi8-r', lang: 'ru', outcome: 'stored' },
    { name: 'sjis-header', enc: 'shift_jis', header: 'shift_jis', meta: null, lang: 'ja', outcome: 'stored' },
    { name: 'sjis-meta', enc: 'shift_jis', header: null, meta: 'Shift_JIS', lang: 'ja', outcome: 'stored' },
    { name: 'eucjp-header', enc: 'euc-jp', header: 'EUC-JP', meta: null, lang: 'ja', outcome: 'stored' },
    { name: 'iso8859-5-header', enc: 'iso-8859-5', header: 'iso-8859-5', meta: null, lang: 'ru', outcome: 'stored' },
    { name: 'utf8-header-only', enc: 'utf-8', header: 'utf-8', meta: null, lang: 'ru', outcome: 'stored' },
    { name: 'cp1251-labelled-utf8', enc: 'windows-1251', header: 'utf-8', meta: null, lang: 'ru', outcome: 'recorded' },
    { name: 'utf8-labelled-cp1251', enc: 'utf-8', header: 'windows-1251', meta: null, lang: 'ru', outcome: 'recorded' },
    { name: 'koi8r-labelled-cp1251', enc: 'koi8-r', header: 'windows-1251', meta: null, lang: 'ru', outcome: 'recorded' },
    { name: 'sjis-unlabelled', enc: 'shift_jis', header: null, meta: null, lang: 'ja', outcome: 'recorded' },
    { name: 'header-vs-meta-conflict', enc: 'windows-1251', header: 'windows-1251', meta: 'utf-8', lang: 'ru', outcome: 'stored' },
    { name: 'bogus-label', enc: 'utf-8', header: 'x-bogus-charset-42', meta: null, lang: 'ru', outcome: 'recorded' },
    { name: 'utf16le-bom', enc: 'utf-16le', header: null, meta: null, lang: 'ru', outcome: 'recorded' },
  ];
  for (const c of cases) {
    const s = seed++;
    const text = c.lang === 'ru' ? wordsFrom(RUSSIAN, s, 150, ' ') : wordsFrom(JAPANESE, s, 150, ' ');
    const metaTag = c.meta === null ? '' : `<meta charset="${c.meta}">`;
    const html = `<!doctype html><html lang="${c.lang}"><head>${metaTag}<title>${c.name}</title></head><body><article>` +
      `<p>${text.slice(0, text.length >> 1)}</p><p>${text.slice(text.length >> 1)}</p></article></body></html>`;
    let body = iconv.encode(html, c.enc);
    if (c.enc === 'utf-16le') body = Buffer.concat([Buffer.from([0xff, 0xfe]), body]);
    const ct = c.header === null ? 'text/html' : `text/html; charset=${c.header}`;
    const probe = text.split(' ').slice(2, 6).join(' ');
    add({ path: `/charset/${c.name}`, family: 'charset', outcome: c.outcome, note: `${c.enc} body, header ${c.header ?? 'none'}, meta ${c.meta ?? 'none'}`, ...(c.outcome === 'stored' ? { expectText: probe } : {}) },
      (_q, r) => send(r, 200, body, { 'content-type': ct }));
  }

  // --- 100,000-deep nesting, text at the bottom.
  const deepCases: Array<[string, string, string]> = [
    ['div', '<div>', '</div>'],
    ['span-unclosed', '<span>', ''],
    ['b-unclosed', '<b>', ''],
    ['table', '<table><tr><td>', '</td></tr></table>'],
    ['ul', '<ul><li>', '</li></ul>'],
    ['svg', '<svg><g>', '</g></svg>'],
  ];
  for (const [name, open, close] of deepCases) {
    const paras = makeText(seed++);
    const parts: Part[] = ['<!doctype html><html><head><title>Deep ', name, '</title></head><body>', { repeat: open, count: o.depth },
      paras.map((p) => `<p>${p}</p>`).join(''), ...(close === '' ? [] : [{ repeat: close, count: o.depth }]), '</body></html>'];
    add({ path: `/deep/${name}`, family: 'deep', outcome: 'recorded', note: `${o.depth}-deep ${open}`, reasons: ['parse-error', 'no-text'] },
      (_q, r, ctx) => streamTo(r, `/deep/${name}`, parts, { 'content-type': 'text/html; charset=utf-8', 'content-length': partsLength(parts) }, ctx));
  }

  // --- huge attribute values (the page text itself is normal).
  const attrCases: Array<[string, string, string, number]> = [
    ['data-attr', '<div data-x="', '">', o.hugeAttributeBytes - 200_000],
    ['title-attr', '<p title="', '">', o.hugeAttributeBytes - 200_000],
    ['href', '<a href="/attr/', '">huge link</a>', o.hugeAttributeBytes - 200_000],
    ['img-data-uri', '<img src="data:image/png;base64,', '">', o.hugeAttributeBytes - 200_000],
    ['class-list', '<div class="', '">', o.hugeAttributeBytes - 200_000],
    ['over-cap', '<div data-y="', '">', o.hugeAttributeBytes + 1024],
  ];
  for (const [name, pre, post, n] of attrCases) {
    const paras = makeText(seed++);
    const unit = name === 'class-list' ? 'c ' : name === 'href' ? 'x' : 'A';
    const parts: Part[] = [`<!doctype html><html><head><title>Attr ${name}</title></head><body><article>`, pre, { repeat: unit, count: Math.floor(n / unit.length) }, post,
      paras.map((p) => `<p>${p}</p>`).join(''), name === 'data-attr' || name === 'class-list' || name === 'over-cap' ? '</div>' : name === 'title-attr' ? '</p>' : '', '</article></body></html>'];
    add({ path: `/attr/${name}`, family: 'attribute', outcome: name === 'over-cap' ? 'not-stored' : 'recorded', note: `${n}-byte attribute value (${pre.trim()})`, reasons: ['too-large'] },
      (_q, r, ctx) => streamTo(r, `/attr/${name}`, parts, { 'content-type': 'text/html; charset=utf-8', 'content-length': partsLength(parts) }, ctx));
  }

  // A normal page with one 200,000-character link: quick to fetch and parse, so the link is always seen.
  const longHref = `/attr/long-link-${'z'.repeat(200_000)}`;
  const longHrefPage = articleHtml(seed++, 'Long link', `<p><a href="${longHref}">a 200,000-character link</a></p>`);
  add({ path: '/attr/long-href', family: 'attribute', outcome: 'stored', note: 'a normal page with a 200,000-character link' },
    (_q, r) => send(r, 200, longHrefPage));

  // --- redirects: loops, chains, codes, other hosts, other schemes, into robots-disallowed paths.
  const redirectTarget = (name: string) => {
    const html = articleHtml(seed++, `Redirect target ${name}`);
    hop(`/redirect/target/${name}`, (_q, r) => send(r, 200, html));
    return `/redirect/target/${name}`;
  };
  add({ path: '/redirect/self', family: 'redirect', outcome: 'not-stored', note: 'redirects to itself', reasons: ['fetch-error'] },
    (_q, r) => redirect(r, '/redirect/self'));
  add({ path: '/redirect/loop/a', family: 'redirect', outcome: 'not-stored', note: 'a → b → a', reasons: ['fetch-error'], hops: ['/redirect/loop/b'] },
    (_q, r) => redirect(r, '/redirect/loop/b', 301));
  hop('/redirect/loop/b', (_q, r) => redirect(r, '/redirect/loop/a', 307));
  for (let n = 0; n < 3; n++) {
    hop(`/redirect/cycle3/${n}`, (_q, r) => redirect(r, `/redirect/cycle3/${(n + 1) % 3}`, [301, 302, 308][n]));
  }
  add({ path: '/redirect/cycle3-start', family: 'redirect', outcome: 'not-stored', note: 'into a 3-cycle', reasons: ['fetch-error'], hops: ['/redirect/cycle3/0', '/redirect/cycle3/1', '/redirect/cycle3/2'] },
    (_q, r) => redirect(r, '/redirect/cycle3/0'));
  // An ever-growing query string: bounded on the server at 64 hops, then 404.
  add({ path: '/redirect/grow', family: 'redirect', outcome: 'not-stored', note: 'query string grows each hop (server stops at 64)', reasons: ['fetch-error', 'http-error'] },
    (_q, r) => redirect(r, '/redirect/grow-hop?n=1'));
  hop('/redirect/grow-hop', (q, r) => {
    const n = Number(new URL(q.url ?? '/', 'http://x').searchParams.get('n') ?? '0');
    if (n >= 64) send(r, 404, '<p>end of growth</p>');
    else redirect(r, `/redirect/grow-hop?n=${n + 1}&pad=${'p'.repeat(n * 16)}`);
  });
  for (const len of [2, 9, 11, 40]) {
    const target = redirectTarget(`chain-${len}`);
    const hops: string[] = [];
    for (let i = 1; i < len; i++) {
      const p = `/redirect/chain/${len}/${i}`;
      hops.push(p);
      hop(p, (_q, r) => redirect(r, i + 1 < len ? `/redirect/chain/${len}/${i + 1}` : target));
    }
    hops.push(target);
    add({ path: `/redirect/chain/${len}/0`, family: 'redirect', outcome: len <= 10 ? 'recorded' : 'not-stored', note: `chain of ${len} redirects`, reasons: ['fetch-error'], hops },
      (_q, r) => redirect(r, len > 1 ? `/redirect/chain/${len}/1` : target));
  }
  for (const code of [301, 302, 303, 307, 308]) {
    const target = redirectTarget(`code-${code}`);
    add({ path: `/redirect/code/${code}`, family: 'redirect', outcome: 'stored', note: `${code} to an article`, hops: [target] },
      (_q, r) => redirect(r, target, code));
  }
  const offhost: Array<[string, string]> = [
    ['absolute', `${alt}/offhost/r0`],
    ['protocol-relative', `//localhost:${port}/offhost/r1`],
    ['back-to-main', `${alt}/offhost/bounce`],
    ['ipv6-loopback', `http://[::1]:${port}/offhost/r3`],
    ['userinfo-trick', `http://127.0.0.1:${port}@localhost:${port}/offhost/r4`],
    ['uppercase-host', `HTTP://LOCALHOST:${port}/offhost/r5`],
  ];
  for (const [name, loc] of offhost) {
    add({ path: `/redirect/offhost/${name}`, family: 'redirect-offhost', outcome: 'not-stored', note: `302 to ${loc}`, reasons: ['out-of-scope'] },
      (_q, r) => redirect(r, loc));
  }
  const fileMarker = 'FILESCHEME';
  const dataMarker = 'DATAURLMARKERQX';
  forbidden.push(dataMarker);
  const schemes: Array<[string, string]> = [
    ['file', `file://${o.secretFile}`],
    ['file-upper', `FILE://${o.secretFile}`],
    ['file-space', ` file://${o.secretFile}`],
    ['data', `data:text/html,<p>${dataMarker} ${makeText(seed++, 1, 40)[0]}</p>`],
    ['data-base64', `data:text/html;base64,${Buffer.from(`<p>${dataMarker} ${makeText(seed++, 1, 40)[0]}</p>`).toString('base64')}`],
    ['javascript', 'javascript:alert(document.domain)'],
    ['ftp', `ftp://127.0.0.1:${port}/x`],
    ['mailto', 'mailto:someone@example.invalid'],
    ['about', 'about:blank'],
    ['empty-location', ''],
    ['garbage-location', 'http://[not a url'],
  ];
  void fileMarker;
  for (const [name, loc] of schemes) {
    add({ path: `/redirect/scheme/${name}`, family: 'redirect-scheme', outcome: 'not-stored', note: `302 to ${loc.slice(0, 60)}`, reasons: ['fetch-error', 'out-of-scope'] },
      (_q, r) => redirect(r, loc));
  }
  add({ path: '/redirect/missing-location', family: 'redirect-scheme', outcome: 'not-stored', note: '302 without Location', reasons: ['http-error', 'fetch-error'] },
    (_q, r) => send(r, 302, ''));
  add({ path: '/redirect/to-private', family: 'redirect', outcome: 'not-stored', note: 'redirects into a robots.txt-disallowed path', reasons: ['robots'] },
    (_q, r) => redirect(r, '/private/redirected'));
  for (const [name, url] of [['offhost', `${alt}/offhost/meta`], ['file', `file://${o.secretFile}`], ['javascript', 'javascript:alert(1)']] as const) {
    const html = page(`Meta refresh ${name}`, ['Moved.'], '', `<meta http-equiv="refresh" content="0;url=${escapeHtml(url)}">`);
    add({ path: `/redirect/meta/${name}`, family: 'redirect-meta', outcome: 'not-stored', note: `meta refresh to ${url}`, reasons: ['too-short', 'no-text'] },
      (_q, r) => send(r, 200, html));
  }
  // Off-host pages the server would serve (they must never be asked for).
  hop('/offhost/bounce', (_q, r) => redirect(r, `http://127.0.0.1:${port}/article/0`));

  // --- robots.txt disallow (never fetched).
  for (let i = 0; i < 10; i++) {
    const html = articleHtml(seed++, `Private ${i}`);
    add({ path: `/private/${i}`, family: 'robots', outcome: 'not-fetched', note: 'Disallow: /private/', reasons: ['robots'] },
      (_q, r) => send(r, 200, html));
  }
  hop('/private/redirected', (_q, r) => send(r, 200, articleHtml(seed, 'Private redirected')));
  seed++;

  // --- pages with no text.
  const empties: Array<[string, string]> = [
    ['zero-bytes', ''],
    ['whitespace', '   \n\t  \r\n'],
    ['empty-html', '<html></html>'],
    ['empty-body', '<!doctype html><html><head><title></title></head><body></body></html>'],
    ['comment-only', '<!-- lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor -->'],
    ['images-only', '<html><body><img src="a.png" alt=""><img src="b.png" alt=""><picture></picture></body></html>'],
    ['title-only', '<html><head><title>Only a title with several words in it here</title></head><body></body></html>'],
    ['nav-only', '<html><body><nav><a href="/">Home</a> <a href="/">News</a></nav></body></html>'],
    ['zero-width', `<html><body><p>${'\u200b\u200c\u200d\ufeff'.repeat(200)}</p></body></html>`],
    ['nbsp', `<html><body><p>${'&nbsp;'.repeat(500)}</p></body></html>`],
    ['punctuation', `<html><body><p>${'... --- !!! ??? ;;; '.repeat(50)}</p></body></html>`],
  ];
  for (const [name, html] of empties) {
    add({ path: `/empty/${name}`, family: 'empty', outcome: 'not-stored', note: 'no text', reasons: ['no-text', 'too-short'] },
      (_q, r) => send(r, 200, html));
  }

  // --- pages that are only scripts, styles and templates (their text must never be stored).
  const scriptMarker = 'SCRIPTMARKERZQ';
  forbidden.push(scriptMarker);
  const prose = (n: number) => `${scriptMarker} ${makeText(seed + n, 1, 80)[0]}`;
  seed += 20;
  const scripts: Array<[string, string]> = [
    ['inline', `<html><head><title>s</title></head><body><script>var t = "${prose(0)}"; document.body.innerText = t;</script></body></html>`],
    ['document-write', `<html><body><script>document.write("<p>${prose(1)}</p>")</script></body></html>`],
    ['json-ld', `<html><head><script type="application/ld+json">{"articleBody": "${prose(2)}"}</script></head><body></body></html>`],
    ['style', `<html><head><style>/* ${prose(3)} */ body { color: red }</style></head><body></body></html>`],
    ['template', `<html><body><template><p>${prose(4)}</p></template></body></html>`],
    ['unclosed-script', `<html><body><script>var a = 1;\n<p>${prose(5)}</p></body></html>`],
    ['text-plain-script', `<html><body><script type="text/plain">${prose(6)}</script></body></html>`],
    ['split-close', `<html><body><script>var s = "</scr" + "ipt>"; var t = "${prose(7)}";</script></body></html>`],
    ['module', `<html><body><script type="module">export const t = "${prose(8)}";</script></body></html>`],
    ['iframe-srcdoc', `<html><body><iframe srcdoc="&lt;p&gt;${prose(9)}&lt;/p&gt;"></iframe></body></html>`],
  ];
  for (const [name, html] of scripts) {
    add({ path: `/script/${name}`, family: 'script-only', outcome: 'not-stored', note: 'only script/style/template text', reasons: ['no-text', 'too-short'], forbiddenText: scriptMarker },
      (_q, r) => send(r, 200, html));
  }

  // --- slow and broken servers (bounded by the crawl's request timeout, and by stallLimitMs here).
  add({ path: '/slow/stall-after-headers', family: 'slow', outcome: 'not-stored', note: 'headers and a few bytes, then nothing', reasons: ['fetch-error'] },
    (_q, r, ctx) => { r.writeHead(200, { 'content-type': 'text/html' }); r.write('<html><body><p>start of a page that never ends '); ctx.stall(r); });
  add({ path: '/slow/stall-before-headers', family: 'slow', outcome: 'not-stored', note: 'never answers', reasons: ['fetch-error'] },
    (_q, r, ctx) => ctx.stall(r));
  add({ path: '/slow/trickle', family: 'slow', outcome: 'not-stored', note: 'one byte every 200 ms, forever', reasons: ['fetch-error'] },
    (_q, r, ctx) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      const t = setInterval(() => { if (!r.destroyed) r.write('a'); }, 200);
      r.on('close', () => clearInterval(t));
      ctx.stall(r);
    });
  add({ path: '/slow/reset', family: 'slow', outcome: 'not-stored', note: 'connection destroyed before any byte', reasons: ['fetch-error'] },
    (q) => q.socket.destroy());
  add({ path: '/slow/close-mid-body', family: 'slow', outcome: 'not-stored', note: 'Content-Length 100000, 2000 bytes, then the socket closes', reasons: ['fetch-error'] },
    (q, r) => {
      r.writeHead(200, { 'content-type': 'text/html', 'content-length': 100_000 });
      r.write(`<html><body><p>${makeText(seed, 1, 200)[0]!.slice(0, 1900)}`, () => setTimeout(() => q.socket.destroy(), 50));
    });
  seed++;
  add({ path: '/slow/garbage-status-line', family: 'slow', outcome: 'not-stored', note: 'not HTTP at all', reasons: ['fetch-error'] },
    (q) => { q.socket.end('SSH-2.0-OpenSSH_9.0\r\n\r\n'); });
  const slowOk = articleHtml(seed++, 'Slow but complete');
  add({ path: '/slow/late-but-fine', family: 'slow', outcome: 'recorded', note: 'answers after 300 ms', reasons: ['fetch-error'] },
    (_q, r) => { const t = setTimeout(() => send(r, 200, slowOk), 300); r.on('close', () => clearTimeout(t)); });

  // --- HTTP errors with article-like bodies (they must not be stored).
  for (const code of [204, 400, 401, 403, 404, 410, 418, 429, 451, 500, 502, 503, 504, 599]) {
    const html = code === 204 ? '' : articleHtml(seed++, `Error ${code}`);
    add({ path: `/status/${code}`, family: 'http-error', outcome: code === 204 ? 'recorded' : 'not-stored', note: `HTTP ${code} with an article-like body`, reasons: ['http-error', 'no-text'] },
      (_q, r) => (code === 204 ? (r.writeHead(204), r.end()) : send(r, code, html, code === 429 || code === 503 ? { 'retry-after': '1' } : {})));
  }

  // --- content types and encodings.
  const ctCases: Array<[string, Outcome, (s: number) => [Buffer, Record<string, string>]]> = [
    ['text-plain', 'not-stored', (s) => [Buffer.from(makeText(s).join('\n\n')), { 'content-type': 'text/plain; charset=utf-8' }]],
    ['octet-stream', 'not-stored', (s) => [Buffer.from(articleHtml(s, 'octet')), { 'content-type': 'application/octet-stream' }]],
    ['image-png', 'not-stored', (s) => [Buffer.from(articleHtml(s, 'png')), { 'content-type': 'image/png' }]],
    ['json', 'not-stored', (s) => [Buffer.from(JSON.stringify({ text: makeText(s).join(' ') })), { 'content-type': 'application/json' }]],
    ['no-content-type', 'recorded', (s) => [Buffer.from(articleHtml(s, 'none')), {}]],
    ['xhtml', 'recorded', (s) => [Buffer.from(`<?xml version="1.0"?>${articleHtml(s, 'xhtml')}`), { 'content-type': 'application/xhtml+xml' }]],
    ['empty-charset', 'stored', (s) => [Buffer.from(articleHtml(s, 'empty charset')), { 'content-type': 'text/html; charset=' }]],
    ['uppercase-type', 'stored', (s) => [Buffer.from(articleHtml(s, 'upper')), { 'content-type': 'TEXT/HTML; Charset=UTF-8' }]],
    ['gzip-corrupt', 'not-stored', (s) => [Buffer.concat([Buffer.from('1f8b0800000000000003', 'hex'), Buffer.from(articleHtml(s, 'corrupt gzip'))]), { 'content-type': 'text/html', 'content-encoding': 'gzip' }]],
    ['br-corrupt', 'not-stored', (s) => [Buffer.from(articleHtml(s, 'corrupt br')), { 'content-type': 'text/html', 'content-encoding': 'br' }]],
    ['unknown-encoding', 'recorded', (s) => [Buffer.from(articleHtml(s, 'x-encoding')), { 'content-type': 'text/html', 'content-encoding': 'x-unknown' }]],
  ];
  for (const [name, outcome, make] of ctCases) {
    const [body, headers] = make(seed++);
    add({ path: `/ctype/${name}`, family: 'content-type', outcome, note: `${JSON.stringify(headers)}`, reasons: ['not-html', 'decode-error', 'fetch-error'] },
      (_q, r) => { r.writeHead(200, { 'content-length': body.length, ...headers }); r.end(body); });
  }
  const gzOk = articleHtml(seed++, 'gzip ok');
  add({ path: '/ctype/gzip-ok', family: 'content-type', outcome: 'stored', note: 'valid gzip content-encoding' },
    (_q, r, ctx) => streamTo(r, '/ctype/gzip-ok', [gzOk], { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, ctx, true));

  // --- URLs with odd characters (each a distinct, storable article).
  const oddPaths = [
    '/odd/with space', '/odd/ünïcödé-straße', '/odd/%E2%82%AC-euro', '/odd/100%25-percent', '/odd/bad%zzescape',
    '/odd/a%2Fb-encoded-slash', `/odd/long-${'x'.repeat(2000)}`, `/odd/longer-${'y'.repeat(7000)}`,
    '/odd/q?x=<script>alert(1)</script>&y="quoted"', '/odd/..%2F..%2F..%2Fetc%2Fpasswd', '/odd/emoji-😀-🚀',
    '/odd/tab%09newline%0Acr%0D', '/odd/CON', '/odd/semi;param=1', '/odd/dot/./x/../y', '/odd/mixed%c3%A9case',
    `/odd/${'Ω'.repeat(300)}`, "/odd/'apos'-\"quote\"-<lt>", '/odd/nul%00byte', '/odd/rtl-\u202Eevil.exe',
    '/odd/back\\slash', '/odd/pipe|and^caret`tick', '/odd/q?a=1&a=2&b=%26&c=%3D',
  ];
  for (const p of oddPaths) {
    const html = articleHtml(seed++, `Odd URL ${p.slice(0, 40)}`);
    add({ path: p, family: 'odd-url', outcome: 'stored', note: `odd URL ${JSON.stringify(p.slice(0, 60))}` }, (_q, r) => send(r, 200, html));
  }

  // --- hostile titles (for the report and CSV outputs) on otherwise normal articles.
  const titles = [
    '<script>alert("title")</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', '</title><script>alert(2)</script>',
    'javascript:alert(3)', "{{constructor.constructor('alert(4)')()}}", '=cmd|\' /C calc\'!A0', "'; DROP TABLE documents; --",
    'line\r\nbreak\u0000nul\u001b[31mansi', '\u202Egnp.exe',
  ];
  titles.forEach((t, i) => {
    const paras = makeText(seed++);
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${t.replace(/</g, '&lt;')}</title></head><body><article><h1>${escapeHtml(t)}</h1>` +
      `${paras.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
    add({ path: `/title/${i}?q="><script>alert(${i})</script>`, family: 'hostile-title', outcome: 'stored', note: `title ${JSON.stringify(t)}` },
      (_q, r) => send(r, 200, html));
  });

  return { routes, hopRoutes, forbidden };
}

function hubPage(port: number, routes: ReadonlyMap<string, Route>): string {
  const alt = `http://localhost:${port}`;
  const links: string[] = [];
  for (const { exp } of routes.values()) {
    // hrefs are attribute-escaped; the crawler must resolve them like a browser.
    links.push(`<li><a href="${escapeHtml(exp.path)}">${escapeHtml(exp.family)}: ${escapeHtml(exp.note.slice(0, 80))}</a></li>`);
  }
  for (let i = 0; i < 10; i++) links.push(`<li><a href="${alt}/offhost/${i}">other host ${i}</a></li>`);
  links.push(`<li><a href="http://[::1]:${port}/offhost/v6">ipv6 loopback</a></li>`, '<li><a href="file:///etc/passwd">file</a></li>',
    '<li><a href="javascript:alert(1)">javascript</a></li>', '<li><a href="data:text/html,<script>alert(1)</script>">data</a></li>',
    '<li><a href="ftp://127.0.0.1/">ftp</a></li>', '<li><a href="http://127.0.0.1:0/zero-port">port zero</a></li>');
  return page('Hostile site index', makeText(1, 3), `<ul>${links.join('\n')}</ul>`);
}

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: evilbot\nDisallow: /\n';

/** Starts the hostile site on 127.0.0.1 (and, when available, [::1]) at a random port. */
export async function startHostileSite(options: HostileSiteOptions = {}): Promise<HostileSite> {
  const o: Required<HostileSiteOptions> = {
    stallLimitMs: options.stallLimitMs ?? 60_000,
    lifetimeMs: options.lifetimeMs ?? 900_000,
    secretFile: options.secretFile ?? '/etc/hostname',
    hugeBytes: options.hugeBytes ?? 50 * 1024 * 1024,
    hugeAttributeBytes: options.hugeAttributeBytes ?? 10 * 1024 * 1024,
    depth: options.depth ?? 100_000,
  };
  const requests: LoggedRequest[] = [];
  const bytesSent = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let routes = new Map<string, Route>();
  let hopRoutes = new Map<string, Handler>();
  let hub = '';
  let host = '';
  let altHost = '';

  const ctx = (): Ctx => ({
    host,
    altHost,
    stall: (res) => {
      const t = setTimeout(() => { timers.delete(t); res.destroy(); }, o.stallLimitMs);
      t.unref();
      timers.add(t);
      res.on('close', () => { clearTimeout(t); timers.delete(t); });
    },
    count: (key, n) => bytesSent.set(key, (bytesSent.get(key) ?? 0) + n),
  });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    requests.push({ host: req.headers.host ?? '', path: raw, method: req.method ?? 'GET', localAddress: req.socket.localAddress ?? '', at: Date.now() });
    res.on('error', () => undefined);
    const key = routeKey(raw);
    try {
      if (key === '/robots.txt') {
        send(res, 200, ROBOTS, { 'content-type': 'text/plain' });
      } else if (key === '/' || key === '/index.html') {
        send(res, 200, hub);
      } else if (routes.has(key)) {
        routes.get(key)!.handler(req, res, ctx());
      } else if (hopRoutes.has(key) || hopRoutes.has(pathKey(raw))) {
        (hopRoutes.get(key) ?? hopRoutes.get(pathKey(raw)))!(req, res, ctx());
      } else {
        send(res, 404, '<html><body><p>not found</p></body></html>');
      }
    } catch {
      if (!res.headersSent) send(res, 500, 'hostile-site handler failed');
      else res.destroy();
    }
  };

  const servers: Server[] = [];
  const listen = (addr: string, port: number) => new Promise<Server | null>((resolve) => {
    const server = createServer({ maxHeaderSize: 64 * 1024 }, handle);
    server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => undefined); });
    server.on('clientError', (_e, s) => s.destroy());
    server.once('error', () => resolve(null));
    server.listen(port, addr, () => resolve(server));
  });
  const main = await listen('127.0.0.1', 0);
  if (main === null) throw new Error('hostile-site: cannot listen on 127.0.0.1');
  servers.push(main);
  const port = (main.address() as { port: number }).port;
  // Also listen on [::1] so a leak to an IPv6 loopback URL reaches us and gets logged.
  const v6 = await listen('::1', port);
  if (v6 !== null) servers.push(v6);
  host = `127.0.0.1:${port}`;
  altHost = `localhost:${port}`;
  const built = buildRoutes(port, o);
  routes = built.routes;
  hopRoutes = built.hopRoutes;
  hub = hubPage(port, routes);

  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      })));
      for (const s of sockets) s.destroy();
    })();
    return closed;
  };
  const life = setTimeout(() => void close(), o.lifetimeMs);
  life.unref();

  return {
    url: `http://${host}/`,
    hostAltUrl: `http://${altHost}/`,
    port,
    host,
    altHost,
    expectations: [...routes.values()].map((r) => r.exp),
    forbiddenMarkers: built.forbidden,
    requests,
    bytesSent,
    classify: (p) => {
      const key = routeKey(p);
      if (key === '/robots.txt') return 'robots';
      if (key === '/' || key === '/index.html') return 'hub';
      if (routes.has(key)) return 'route';
      if (hopRoutes.has(key) || hopRoutes.has(pathKey(p))) return 'hop';
      return 'unknown';
    },
    close: async () => { clearTimeout(life); await close(); },
  };
}
