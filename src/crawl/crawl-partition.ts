/**
 * `--partition i/N`: which share of the hosts one crawler process owns when N processes (on any
 * machines) crawl together through a shared PostgreSQL frontier (pg-frontier.ts).
 *
 * A URL belongs to partition `fnv1a32(key) mod N`, key being its host's registrable domain (public
 * suffix list, tldts: `www.example.co.uk` and `blog.example.co.uk` share `example.co.uk`), or the
 * host itself for IP addresses and `localhost`. Every host of a domain lands in one process, so
 * per-host politeness (host-pacer.ts) and robots.txt are kept by one process only. The hash is
 * FNV-1a over the key's UTF-16 code units (hostnames are ASCII after URL parsing: punycode): fixed
 * here, the same on every machine and every version that reads the same frontier table.
 */
import { getDomain } from 'tldts';
import { ValidationError, describeValue } from '../errors.js';

/** One process's share: partition `index` of `count` (0 ≤ index < count). */
export interface CrawlPartition {
  readonly index: number;
  readonly count: number;
}

/** Most partitions a crawl may have. */
export const MAX_PARTITIONS = 4096;

/** Parses `i/N` (0 ≤ i < N ≤ MAX_PARTITIONS); anything else is a ValidationError. */
export function parsePartition(raw: unknown): CrawlPartition {
  const expected = `Expected \`partition\` to be i/N with 0 ≤ i < N ≤ ${MAX_PARTITIONS} (e.g. 0/4)`;
  if (typeof raw !== 'string') throw new ValidationError(`${expected}, got ${describeValue(raw)}`);
  const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(raw);
  if (match === null) throw new ValidationError(`${expected}, got ${describeValue(raw)}`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_PARTITIONS || index >= count) throw new ValidationError(`${expected}, got ${describeValue(raw)}`);
  return { index, count };
}

/** Checks a partition given to the library (index and count integers, 0 ≤ index < count ≤ MAX_PARTITIONS). */
export function checkPartition(partition: { readonly index: unknown; readonly count: unknown }): void {
  const { index, count } = partition;
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_PARTITIONS) {
    throw new ValidationError(`Expected \`partition.count\` to be an integer 1–${MAX_PARTITIONS}, got ${describeValue(count)}`);
  }
  if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= (count as number)) {
    throw new ValidationError(`Expected \`partition.index\` to be an integer 0–${(count as number) - 1}, got ${describeValue(index)}`);
  }
}

/** `i/N`, as the flag is written. */
export function partitionLabel(partition: CrawlPartition): string {
  return `${partition.index}/${partition.count}`;
}

/** The key a host is partitioned by: its registrable domain, or the host for IPs and `localhost`. */
export function partitionKey(hostname: string): string {
  const host = hostname.toLowerCase();
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The partition (0 ≤ p < count) of a host. */
export function partitionOfHost(hostname: string, count: number): number {
  return fnv1a32(partitionKey(hostname)) % count;
}
