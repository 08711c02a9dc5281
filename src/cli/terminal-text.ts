/**
 * What neardup prints for a person to read passes through here: credentials in URL-like strings
 * are hidden, and control characters that came with the input are shown as escapes instead of
 * being acted on by the terminal.
 *
 * Input is written by strangers: a title, a URL, a bad JSON line or a file name may carry ESC
 * sequences (clear the screen, set the window title, OSC 8 links that point elsewhere than they
 * read), a carriage return that overwrites what was printed, or a bidirectional override that
 * reorders it. A config value or a flag may carry a password (`index.url`, a JDBC URL, a
 * `password=` parameter), which must never reach a terminal or a log.
 */

/**
 * C0 controls and DEL, C1 controls, and the invisible formatting characters that reorder or hide
 * what follows (bidirectional embeddings, overrides and isolates; line and paragraph separators).
 * Line feed and tab are matched too; `escapeControls` keeps them when asked.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\u200e\u200f]/g;

/** The escape shown for one control character: `\x1b`, `\u202e`. */
function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Every control character of `text` as a visible escape (`\x1b[2J` prints as those six
 * characters), but the line feeds and tabs of a multi-line text when `keepLines` is true (a one-line
 * message escapes them too, so one message stays one line).
 */
export function escapeControls(text: string, keepLines = false): string {
  return text.replace(CONTROL, (ch) => (keepLines && (ch === '\n' || ch === '\t') ? ch : escapeOne(ch)));
}

/** Query and key=value parameters whose value is a secret. */
const SECRET_PARAM = /(^|[?&;\s,])((?:ssl)?pass(?:word|wd|phrase)?|pwd|secret|client_secret|token|access_token|auth_token|api_?key|apikey|private_key)=([^&;\s#`'"<>,]*)/gi;

/** `scheme://` (any scheme, with `+` or `.`: `postgresql+psycopg2://`, `jdbc:postgresql://`) or a bare `//`. */
const AUTHORITY_START = /(?:[a-z][a-z0-9+.-]*:)*\/\//gi;

/** Characters that end a URL's authority part (RFC 3986: `/`, `?`, `#`), or the URL itself as printed. */
const AUTHORITY_END = /[/?#\s`'"<>]/;

/** A password that stands for one in a usage text (`user[:password]@`, `:<password>@`, `:***@`): kept as written. */
const PLACEHOLDER = /^(password\]|<[^<>]*>|\*+)$/i;

/**
 * `text` with the password of every URL-like string in it replaced by `***`: the userinfo of
 * `scheme://user:password@host` (the password may hold unencoded `@`: the host starts after the
 * last `@` of the authority), secret parameters (`?password=`, `&token=`, `password=` in a libpq
 * key/value string), and Oracle-style `user/password@host` after a `jdbc:` scheme. A user name alone
 * is kept (it is what tells two indexes apart in a summary).
 */
export function redactCredentials(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(AUTHORITY_START)) {
    const start = match.index + match[0].length;
    if (start < last) continue;
    let end = start;
    while (end < text.length && !AUTHORITY_END.test(text[end]!)) end++;
    const authority = text.slice(start, end);
    const at = authority.lastIndexOf('@');
    if (at === -1) continue;
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon === -1 || PLACEHOLDER.test(userinfo.slice(colon + 1))) continue;
    out += `${text.slice(last, start)}${userinfo.slice(0, colon)}:***@`;
    last = start + at + 1;
  }
  out += text.slice(last);
  return out
    .replace(/(jdbc:[a-z0-9:]*?:)([^/:@\s`'"]+)\/([^@\s`'"]+)@/gi, '$1$2/***@')
    .replace(SECRET_PARAM, (_all, before: string, key: string) => `${before}${key}=***`);
}

/** Text for a terminal or a log: credentials hidden, controls escaped (line feeds and tabs kept with `keepLines`). */
export function forTerminal(text: string, keepLines = false): string {
  return escapeControls(redactCredentials(text), keepLines);
}

/** Text a command writes on stdout: as given into a pipe or a file, with controls escaped (lines kept) on a terminal. */
export function forStdout(text: string): string {
  return process.stdout.isTTY === true ? escapeControls(text, true) : text;
}

/** Writes one message line on stderr: `neardup: ` (unless the line has it) and the line made safe. */
export function writeErrorLine(line: string): void {
  const safe = forTerminal(line.replace(/\n+$/, ''));
  process.stderr.write(`${safe.startsWith('neardup: ') ? '' : 'neardup: '}${safe}\n`);
}
