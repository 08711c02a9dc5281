/** How a fetch's failure, error or header reads in a skip record: one bounded line, an ISO date. */

/** The first line of a message, at most 300 characters (a skip's detail). */
export function firstLine(message: string): string {
  const line = message.split('\n', 1)[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** The first informative line of a fetch error (crawlee prefixes connection errors with a session notice). */
export function failureDetail(error: Error): string {
  const lines = String(error.message).split('\n').map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('Detected a session error') && !line.startsWith('at '));
  return firstLine(lines[0] ?? error.name);
}

/** A Last-Modified header as an ISO date, or null when absent or unreadable. */
export function lastModifiedIso(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
