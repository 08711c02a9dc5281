/**
 * The page's declared main content (`<main>`, `role="main"`) and heading anchors as evidence:
 * documentation pages whose article is short, split into sections, or only links must not come
 * out as their footer, the text every page of the site shares (different pages would then be
 * merged as exact duplicates).
 */
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/extract/extract-page.js';

const footerProse = [
  'Copyright 2010-2026, the Acme Toolkit authors and contributors, all rights reserved where the law allows.',
  'This page is licensed under the Acme Documentation License, version 3, which allows copying with attribution.',
  'Code examples in the documentation are additionally placed in the public domain, so that you may reuse them.',
  'Last updated on March 02, 2026, from the sources of release 4.2 of the toolkit. Found a bug? Tell us about it.',
];

const sidebar = `<div class="sphinxsidebar" role="navigation"><h3><a href="../contents.html">Table of contents</a></h3>
<ul><li><a href="#">This page</a></li><li><a href="fax.html">Previous topic</a></li><li><a href="modem.html">Next topic</a></li></ul></div>`;

type Footer = 'div' | 'footer' | 'contentinfo';

function footer(kind: Footer): string {
  const text = footerProse.join('\n<br>\n');
  if (kind === 'footer') return `<footer>${text}</footer>`;
  if (kind === 'contentinfo') return `<div role="contentinfo">${text}</div>`;
  return `<div class="footer">${text}</div>`;
}

type Main = 'role' | 'main';

/** A documentation page: navigation, `body` as the declared main content, a sidebar and a footer. */
function docsPage(title: string, body: string, options: { main?: Main; footer?: Footer } = {}): string {
  const open = options.main === 'main' ? '<main>' : '<div class="body" role="main">';
  const close = options.main === 'main' ? '</main>' : '</div>';
  return `<!doctype html><html><head><title>${title} — Acme Toolkit 4.2 documentation</title></head><body>
<div class="related" role="navigation"><ul><li><a href="../genindex.html">index</a></li><li><a href="../index.html">Acme Toolkit 4.2 documentation</a></li></ul></div>
<div class="document"><div class="documentwrapper">${open}${body}${close}</div>${sidebar}</div>
${footer(options.footer ?? 'div')}
</body></html>`;
}

/** A short module page: two sentences full of cross-reference links, less prose than the footer. */
function shortModule(name: string, sentences: readonly string[]): string {
  const ref = (word: string) => `<a class="reference internal" href="#module-${name}"><code class="xref"><span class="pre">${word}</span></code></a>`;
  return `<section id="module-${name}"><h1>${ref(name)} — ${name} helpers<a class="headerlink" href="#module-${name}">¶</a></h1>
${sentences.map((s) => `<p>The ${ref(name)} module ${s}</p>`).join('\n')}</section>`;
}

const spool = shortModule('spool', [
  'hands documents to the print daemon and watches them through the queue.',
  'needs a running print daemon, so it works only where one is installed.',
]);
const modem = shortModule('modem', [
  'opens serial lines and dials numbers with the usual command set.',
  'reads the line settings from the system, so it works with any port.',
]);

describe('a short article beside a footer with more prose', () => {
  const cases: readonly { main: Main; footer: Footer }[] = [
    { main: 'role', footer: 'div' },
    { main: 'role', footer: 'footer' },
    { main: 'role', footer: 'contentinfo' },
    { main: 'main', footer: 'div' },
    { main: 'main', footer: 'footer' },
  ];
  for (const { main, footer: kind } of cases) {
    it(`gives the article, not the footer (main: ${main}, footer: ${kind})`, () => {
      const text = extractHtml(docsPage('spool — spool helpers', spool, { main, footer: kind })).text;
      expect(text).toContain('hands documents to the print daemon');
      expect(text).toContain('works only where one is installed');
      expect(text).not.toContain('Documentation License');
    });
  }

  it('gives two pages that share only their footer different texts', () => {
    const a = extractHtml(docsPage('spool — spool helpers', spool)).text;
    const b = extractHtml(docsPage('modem — modem helpers', modem)).text;
    expect(a).not.toBe(b);
    expect(b).toContain('dials numbers');
    expect(b).not.toContain('public domain');
  });
});

describe('a page whose main content is only a heading and links', () => {
  // Ten entries, as a table of contents has: text of the same order as the footer's prose. (A
  // landmark holding under a quarter of it is no evidence against the footer: page-furniture.ts.)
  const links = [
    'What is new in 4.2', 'What is new in 4.1', 'The tutorial', 'Library reference', 'spool — Print queue helpers',
    'modem — Serial line helpers', 'fax — Fax helpers', 'Installing the toolkit', 'Frequently asked questions', 'Glossary',
  ].map((t, i) => `<li class="toctree-l1"><a class="reference internal" href="page${i}.html">${t}</a></li>`).join('\n');
  const contents = `<section id="toolkit-contents"><h1>Toolkit contents<a class="headerlink" href="#toolkit-contents">¶</a></h1>
<div class="toctree-wrapper"><ul>${links}</ul></div></section>`;

  it('does not give the footer as its text', () => {
    const text = extractHtml(docsPage('Contents', contents)).text;
    for (const sentence of footerProse) expect(text).not.toContain(sentence.slice(0, 40));
  });
});

describe('sections named after their headings', () => {
  // `sharing` and `related` are furniture words in a class or id; here they are anchors of
  // sections a table of contents links to.
  const toc = `<ul class="toc"><li><a href="#sharing-state-between-processes">Sharing state</a></li><li><a href="#related-work">Related work</a></li></ul>`;
  const section = (id: string, heading: string, prose: string) =>
    `<section id="${id}"><h2>${heading}<a class="headerlink" href="#${id}">¶</a></h2><p>${prose}</p></section>`;
  const body = `<section id="intro"><h1>Worker pools</h1>${toc}
<p>A pool runs functions in worker processes, collects their results and hands them back in the order the calls were made.</p></section>
${section('sharing-state-between-processes', 'Sharing state between processes', 'State shared between processes should be avoided where possible, because every access then needs a lock or a message.')}
${section('related-work', 'Related work', 'Earlier designs kept one queue per worker, which balanced badly when some calls took far longer than others did.')}`;

  it('keeps a section whose id is its heading\'s slug and a link target', () => {
    const text = extractHtml(docsPage('Worker pools', body)).text;
    expect(text).toContain('every access then needs a lock');
    expect(text).toContain('balanced badly');
  });

  it('still sets aside a related-posts box whose id no link points to', () => {
    const page = `<html><head><title>Harbour bridge reopens</title></head><body><div class="post">
<p>The harbour bridge reopened to traffic on Tuesday morning, three months after engineers closed it to replace corroded cables.</p>
<p>Commuters who had faced detours of up to forty minutes welcomed the news, although a weight limit stays in place until summer.</p>
<div id="related-posts"><h3>Related posts</h3><p>Ferry timetable changes for the winter season, with fewer sailings on weekday evenings and none on Sundays.</p></div>
</div></body></html>`;
    const text = extractHtml(page).text;
    expect(text).toContain('detours of up to forty minutes');
    expect(text).not.toContain('Ferry timetable');
  });
});

describe('an article split into parts inside the declared main content', () => {
  // One entry holds many short paragraphs directly (it scores best), the other sections hold more
  // prose between them, each one level deeper.
  const entry = `<dl class="function"><dt id="pool.map">pool.map(func, items)</dt><dd>${
    Array.from({ length: 8 }, (_, i) => `<p>Step ${i + 1} of the call, in which the pool sends a chunk of items to a free worker, waits, and collects its results.</p>`).join('')
  }</dd></dl>`;
  const part = (n: number) => `<section id="part-${n}"><h2>Part ${n}</h2><div class="part-${n}">${
    Array.from({ length: 4 }, (_, i) => `<p>Paragraph ${i + 1} of part ${n} explains, in its own words, why workers are started lazily and stopped when idle.</p>`).join('')
  }</div></section>`;
  const body = `<section id="worker-pools"><h1>Worker pools</h1>${part(1)}${part(2)}<section id="reference"><h2>Reference</h2>${entry}</section>${part(3)}${part(4)}</section>`;

  it('gives every part', () => {
    const text = extractHtml(docsPage('Worker pools', body, { main: 'main' })).text;
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`Paragraph 4 of part ${n}`);
    expect(text).toContain('Step 8 of the call');
    expect(text).not.toContain('Documentation License');
  });
});

describe('a <main> that holds only a byline', () => {
  it('is no evidence against the article beside it', () => {
    const prose = Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i + 1}: the council met on Thursday to discuss the new library, which has been delayed by two years.</p>`).join('');
    const page = `<html><head><title>Library plans</title></head><body><main><p>By Kim Lee</p></main>
<div class="content-sidebar">${prose}</div><div class="footer">${footerProse[0]}</div></body></html>`;
    const text = extractHtml(page).text;
    expect(text).toContain('Paragraph 5: the council met');
    expect(text).not.toContain('all rights reserved');
  });
});
