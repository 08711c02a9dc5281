/**
 * Escaping for the HTML report. Every crawled string (URL, title) is written by strangers: it goes
 * through `escapeHtml` for both text and attribute values, and becomes a link only when it is an
 * http(s) URL (never `javascript:`, `data:` or anything else).
 */
import { httpHref } from '../url/comparable-url.js';

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]!);
}

/** A link to `url` when it is http(s), else the URL as plain text; the visible text is escaped. */
export function urlHtml(url: string, className = 'url'): string {
  const href = httpHref(url);
  const text = escapeHtml(url);
  if (href === null) return `<span class="${className}">${text}</span>`;
  return `<a class="${className}" href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${text}</a>`;
}
