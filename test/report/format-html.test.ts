import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { buildClusters } from '../../src/report/build-clusters.js';
import { clusterSizeBars, contentSecurityPolicy, formatClustersHtml } from '../../src/report/format-html.js';
import { escapeHtml, urlHtml } from '../../src/report/html-escape.js';
import { exactDoc, flipBits, nearDoc, storedDoc, baseFingerprint } from './report-fixtures.js';

const hostile = {
  img: '<img src=x onerror=alert(1)>',
  script: '<script>alert(1)</script>',
  attr: '" onmouseover="alert(1)" x="',
};

function hostileReport() {
  const a = storedDoc(1, 'http://a.example/p?q="><script>alert(1)</script>', { title: hostile.img });
  const b = storedDoc(2, 'javascript:alert(1)', { title: hostile.script, fingerprint: flipBits(baseFingerprint, [1, 2, 3, 4, 5, 6, 7, 8]) });
  return buildClusters([a, b], [
    exactDoc(3, `http://b.example/${hostile.attr}`, a, { title: hostile.attr }),
    nearDoc(4, 'http://c.example/p', a, [9, 10]),
    nearDoc(5, 'data:text/html,<script>alert(2)</script>', b, [11], { title: '&amp; <b>bold</b>' }),
  ], new Map(), { distanceThreshold: 3 });
}

describe('escapeHtml and urlHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('links only http(s) URLs', () => {
    expect(urlHtml('http://e.com/a"b')).toBe('<a class="url" href="http://e.com/a%22b" rel="noopener noreferrer nofollow">http://e.com/a&quot;b</a>');
    expect(urlHtml('javascript:alert(1)')).toBe('<span class="url">javascript:alert(1)</span>');
    expect(urlHtml(' JAVASCRIPT:alert(1)')).not.toContain('href');
  });
});

describe('formatClustersHtml', () => {
  const html = formatClustersHtml(hostileReport(), { source: '/data/<x>', generatedAt: new Date('2024-05-06T07:08:09Z') });
  const { document } = parseHTML(html);

  it('is one self-contained page with a strict CSP and no script or external resource', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
    expect(csp?.getAttribute('content')).toBe(contentSecurityPolicy);
    expect(contentSecurityPolicy).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(document.querySelectorAll('img, link, iframe, object, embed')).toHaveLength(0);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(document.querySelectorAll('[src], [href]:not(a)')).toHaveLength(0);
  });

  it('shows every crawled string as text, never as markup', () => {
    const text = document.body.textContent ?? '';
    expect(text).toContain(hostile.img);
    expect(text).toContain(hostile.script);
    expect(text).toContain(hostile.attr);
    expect(text).toContain('&amp; <b>bold</b>');
    expect(text).toContain('/data/<x>');
    expect(document.querySelectorAll('b')).toHaveLength(document.querySelectorAll('.card b').length);
    for (const el of document.querySelectorAll('*')) {
      for (const name of el.getAttributeNames()) expect(name.startsWith('on')).toBe(false);
    }
  });

  it('links only to http(s) URLs', () => {
    const hrefs = [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
    expect(text(document.querySelector('#clusters-table'))).toContain('javascript:alert(1)');
  });

  it('lists the clusters largest first with primary, reasons and members, and both plots', () => {
    const rows = [...document.querySelectorAll('#clusters-table tr.cluster')];
    expect(rows).toHaveLength(2);
    expect(text(rows[0]!.querySelectorAll('td')[1]!)).toBe('3');
    expect(text(rows[0]!)).toContain('no distinguishing evidence: the stored copy');
    expect(rows[0]!.querySelectorAll('table.members tbody tr')).toHaveLength(3);
    expect(document.querySelector('svg#plot-distances')).not.toBeNull();
    expect(document.querySelector('svg#plot-sizes')).not.toBeNull();
    expect(document.querySelectorAll('svg#plot-distances rect.bar')).toHaveLength(3); // distances 0, 1, 2
    expect(text(document.querySelector('#summary'))).toContain('rejected');
    expect(text(document.querySelector('header'))).toContain('2024-05-06T07:08:09.000Z');
  });

  it('says so when there is nothing to show', () => {
    const empty = parseHTML(formatClustersHtml(buildClusters([], [], new Map()))).document;
    expect(text(empty.querySelector('#clusters'))).toContain('No duplicate clusters');
    expect(text(empty.querySelector('#mirrors'))).toContain('No host mirrors');
    expect(text(empty.querySelector('#plot-distances'))).toContain('no rejected pages');
    expect(text(empty.querySelector('#plot-sizes'))).toContain('no clusters');
  });

  it('lists at most maxClusters clusters and says how many there are', () => {
    const page = parseHTML(formatClustersHtml(hostileReport(), { maxClusters: 1 })).document;
    expect(page.querySelectorAll('#clusters-table tr.cluster')).toHaveLength(1);
    expect(text(page.querySelector('#clusters'))).toContain('Showing the 1 largest of 2 clusters');
  });
});

describe('clusterSizeBars', () => {
  it('has one bar per size up to 16', () => {
    expect(clusterSizeBars([{ size: 2, clusters: 5 }, { size: 4, clusters: 1 }]).map((b) => [b.label, b.value]))
      .toEqual([['2', 5], ['3', 0], ['4', 1]]);
  });

  it('groups larger sizes into 1–2–5 ranges', () => {
    const bars = clusterSizeBars([{ size: 2, clusters: 1 }, { size: 7, clusters: 2 }, { size: 15, clusters: 3 }, { size: 130, clusters: 1 }]);
    expect(bars.map((b) => b.label)).toEqual(['2', '3', '4', '5', '6–9', '10–19', '20–49', '50–99', '100–199']);
    expect(bars.map((b) => b.value)).toEqual([1, 0, 0, 0, 2, 3, 0, 0, 1]);
  });
});

function text(node: { textContent: string | null } | null): string {
  return node?.textContent ?? '';
}
