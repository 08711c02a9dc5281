import { ValidationError, describeValue } from '../errors.js';

/**
 * A User-Agent is one header line: CR or LF (or another control character) would split or break the
 * request (and every request of the crawl would fail), so it is refused before anything is touched.
 */
export function checkUserAgent(userAgent: unknown): void {
  if (typeof userAgent !== 'string' || userAgent.trim() === '' || /[\x00-\x08\x0a-\x1f\x7f]/.test(userAgent)) {
    throw new ValidationError(`Expected \`crawl.userAgent\` (--user-agent) to be one line of text without control characters, got ${typeof userAgent === 'string' ? JSON.stringify(userAgent) : describeValue(userAgent)}`);
  }
}
