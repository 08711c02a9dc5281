/**
 * robots.txt (RFC 9309): parse once per host, then answer "may this agent fetch this URL".
 *
 * - Groups are chosen by the agent's product token (`neardup` of `neardup/0.1 (...)`), case-
 *   insensitively; every group naming it is merged. With none, the `*` groups apply; with no
 *   `*` group either, everything is allowed.
 * - The longest matching rule wins; on a tie `Allow` wins. `*` matches any run of characters and
 *   a final `$` anchors the end. Rules match the path and query of the URL, percent-encoded.
 * - `/robots.txt` itself is always allowed.
 */

/** One Allow/Disallow line. */
export interface RobotsRule {
  readonly allow: boolean;
  /** The path pattern, percent-encoded as URLs are (`*` and a final `$` kept). */
  readonly pattern: string;
}

/** A group of rules for some user agents. */
export interface RobotsGroup {
  /** Lower-case user-agent tokens; `*` for every agent. */
  readonly agents: readonly string[];
  readonly rules: readonly RobotsRule[];
  /** `Crawl-delay` in seconds, or null when the group does not set one. */
  readonly crawlDelaySecs: number | null;
}

/** A parsed robots.txt. */
export interface RobotsRules {
  readonly groups: readonly RobotsGroup[];
}

/** What a host's robots.txt says for one agent: its rules merged. */
export interface RobotsPolicy {
  readonly rules: readonly RobotsRule[];
  readonly crawlDelaySecs: number | null;
}

/** Allows everything (no robots.txt, or one that is unavailable: 4xx). */
export const allowAllRobots: RobotsRules = { groups: [] };

/** Disallows everything (robots.txt unreachable: 5xx or network error, RFC 9309 §2.3.1.4). */
export const disallowAllRobots: RobotsRules = {
  groups: [{ agents: ['*'], rules: [{ allow: false, pattern: '/' }], crawlDelaySecs: null }],
};

/** Printable ASCII without characters URLs encode, and no lower-case escapes: already normal. */
const normalPath = /^[!#-;=?-_a-z|~]*$/;

/** Percent-encodes what URLs encode, and upper-cases existing escapes, so patterns compare with URL paths. */
function normalizePath(raw: string): string {
  if (normalPath.test(raw) && !/%[0-9A-F]?[a-f]/.test(raw)) return raw;
  let out = '';
  for (const char of raw) {
    const code = char.codePointAt(0)!;
    if (code > 0x7e || code <= 0x20 || char === '"' || char === '<' || char === '>' || char === '`' || char === '{' || char === '}') {
      for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    } else {
      out += char;
    }
  }
  return out.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/** The product token of a User-Agent string: `neardup/0.1 (x)` → `neardup`. */
export function productToken(userAgent: string): string {
  const token = /^[A-Za-z0-9_-]+/.exec(userAgent.trim());
  return token === null ? '*' : token[0].toLowerCase();
}

/** Parses robots.txt text. Unknown lines are ignored; the parse never fails. */
export function parseRobotsTxt(text: string): RobotsRules {
  const groups: { agents: string[]; rules: RobotsRule[]; crawlDelaySecs: number | null }[] = [];
  let current: (typeof groups)[number] | null = null;
  // A run of user-agent lines opens one group; the first rule line closes the run.
  let collectingAgents = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!collectingAgents || current === null) {
        current = { agents: [], rules: [], crawlDelaySecs: null };
        groups.push(current);
        collectingAgents = true;
      }
      current.agents.push(value.startsWith('*') ? '*' : productToken(value));
      continue;
    }
    collectingAgents = false;
    if (current === null) continue;
    if (key === 'allow' || key === 'disallow') {
      // An empty Disallow allows everything: it adds no rule.
      if (value === '') continue;
      current.rules.push({ allow: key === 'allow', pattern: normalizePath(value) });
    } else if (key === 'crawl-delay') {
      const secs = Number(value);
      if (Number.isFinite(secs) && secs >= 0) current.crawlDelaySecs = secs;
    }
  }
  return { groups };
}

/** The rules that apply to an agent (its own groups merged, else the `*` groups). */
export function robotsPolicyFor(robots: RobotsRules, userAgent: string): RobotsPolicy {
  const token = productToken(userAgent);
  let chosen = robots.groups.filter((group) => group.agents.includes(token));
  if (chosen.length === 0) chosen = robots.groups.filter((group) => group.agents.includes('*'));
  const delays = chosen.map((group) => group.crawlDelaySecs).filter((d): d is number => d !== null);
  return {
    rules: chosen.flatMap((group) => group.rules),
    crawlDelaySecs: delays.length === 0 ? null : Math.max(...delays),
  };
}

/** Whether `pattern` (with `*` and a final `$`) matches the start of `path`. */
export function robotsPatternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  // The first part must be a prefix; later parts are found left to right (greedy enough for
  // prefix matching, since `*` may match any run).
  if (!path.startsWith(parts[0]!)) return false;
  let position = parts[0]!.length;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === parts.length - 1 && anchored) {
      // The last literal must end the path, after the current position.
      return path.length - part.length >= position && path.endsWith(part);
    }
    const found = path.indexOf(part, position);
    if (found < 0) return false;
    position = found + part.length;
  }
  return anchored ? position === path.length : true;
}

/** Whether the policy lets the agent fetch `url` (a string, or a URL already parsed). */
export function robotsAllows(policy: RobotsPolicy, url: string | URL): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return false;
  }
  const path = normalizePath(`${parsed.pathname}${parsed.search}`);
  if (path === '/robots.txt') return true;
  let best: RobotsRule | null = null;
  for (const rule of policy.rules) {
    if (!robotsPatternMatches(rule.pattern, path)) continue;
    if (
      best === null
      || rule.pattern.length > best.pattern.length
      || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
    ) {
      best = rule;
    }
  }
  return best === null || best.allow;
}
