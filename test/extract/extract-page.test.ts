import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { extractHtml, extractPage, parseHtml } from '../../src/extract/extract-page.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'extract');

const prose = [
  'The committee met on Thursday to discuss the new library, which has been delayed by two years because of rising costs.',
  'Members agreed to ask the county for a loan, and to review the design so that the building can open in stages from next spring.',
  'A public meeting will be held in the old town hall, where residents can see the revised plans and put questions to the architects.',
];

/** A page whose article is `prose` in <p> elements, with `extra` inserted before the article's end. */
function page(extra: string, options: { before?: string; after?: string } = {}): string {
  return `<!doctype html><html><head><title>Library plans</title></head><body>
${options.before ?? ''}
<div class="article-body">${prose.map((p) => `<p>${p}</p>`).join('\n')}${extra}</div>
${options.after ?? ''}
</body></html>`;
}

describe('golden fixtures', () => {
  const folders = readdirSync(fixtures).filter((name) => existsSync(join(fixtures, name, 'input.html')));

  it('has fixture folders', () => {
    expect(folders.length).toBeGreaterThanOrEqual(4);
  });

  for (const folder of folders) {
    it(`extracts ${folder}`, () => {
      const html = readFileSync(join(fixtures, folder, 'input.html'), 'utf8');
      const expected = readFileSync(join(fixtures, folder, 'expected.txt'), 'utf8').trimEnd();
      expect(extractHtml(html, 'https://example.com/article').text).toBe(expected);
    });
  }
});

describe('boilerplate removal', () => {
  const cases: readonly { name: string; html: string; where?: 'inside' | 'before' | 'after'; gone: string }[] = [
    { name: 'navigation', where: 'before', html: '<nav><a href="/a">Home page</a> <a href="/b">World news</a> <a href="/c">Business</a></nav>', gone: 'World news' },
    { name: 'site header', where: 'before', html: '<header><div class="logo">Evening Gazette serving the valley since 1901</div></header>', gone: 'Evening Gazette' },
    {
      name: 'cookie banner', where: 'before',
      html: '<div class="cookie-notice">This site uses cookies to give you the best experience. By continuing you agree to our use of cookies.</div>',
      gone: 'uses cookies',
    },
    {
      name: 'comment thread', where: 'after',
      html: '<div id="comments"><div class="comment"><p>I have lived here for forty years and I have never seen the council agree on anything this quickly.</p></div><div class="comment"><p>What about parking? Nobody ever thinks about where people are supposed to leave their cars.</p></div></div>',
      gone: 'forty years',
    },
    {
      name: 'related stories list', where: 'inside',
      html: '<div class="related-articles"><h3>Related</h3><ul><li><a href="/news/1">Council approves budget for new swimming pool in the park</a></li><li><a href="/news/2">School extension opens after summer holidays</a></li></ul></div>',
      gone: 'swimming pool',
    },
    {
      name: 'share bar', where: 'inside',
      html: '<div class="share-tools"><a href="https://twitter.com/intent/tweet">Share on Twitter</a><a href="https://www.facebook.com/sharer">Share on Facebook</a><a href="mailto:?subject=x">Email</a></div>',
      gone: 'Share on',
    },
    {
      name: 'newsletter prompt', where: 'inside',
      html: '<div class="newsletter-signup"><p>Sign up for our free newsletter and get the best local stories delivered to your inbox every morning.</p><input type="email"><button>Sign up</button></div>',
      gone: 'newsletter',
    },
    { name: 'sidebar', where: 'after', html: '<aside><h3>Most read</h3><p>Man finds enormous marrow in allotment and enters it into the county show for the first time.</p></aside>', gone: 'marrow' },
    { name: 'footer', where: 'after', html: '<footer><p>Copyright 2024 Evening Gazette Ltd, registered in the valley, all rights reserved.</p></footer>', gone: 'Copyright' },
    { name: 'display:none', where: 'inside', html: '<p style="display: none">This paragraph is hidden from every reader of the page by its inline style.</p>', gone: 'hidden from every' },
    { name: 'hidden attribute', where: 'inside', html: '<p hidden>This paragraph carries the hidden attribute and no browser shows it to anyone.</p>', gone: 'hidden attribute' },
    { name: 'script and style', where: 'inside', html: '<script>var secretScriptText = "do not show";</script><style>.x{content:"style text"}</style>', gone: 'secretScriptText' },
    { name: 'noscript', where: 'inside', html: '<noscript>Please enable JavaScript to view the comments powered by a service.</noscript>', gone: 'enable JavaScript' },
    { name: 'advertisement label', where: 'inside', html: '<div class="ad-slot"><span>Advertisement</span></div><p>Advertisement</p>', gone: 'Advertisement' },
    { name: 'read-more teaser', where: 'inside', html: '<p>Read more: <a href="/news/2024/other-story">Council leader steps down after twelve years in the post</a></p>', gone: 'steps down' },
    { name: 'figure caption', where: 'inside', html: '<figure><img src="a.jpg"><figcaption>The old library building photographed in 1958 by a local resident</figcaption></figure>', gone: 'photographed' },
  ];

  for (const c of cases) {
    it(`removes ${c.name} and keeps the article`, () => {
      const where = c.where ?? 'inside';
      const html = where === 'inside' ? page(c.html) : page('', where === 'before' ? { before: c.html } : { after: c.html });
      const { text } = extractHtml(html);
      expect(text).toBe(prose.join('\n\n'));
      expect(text).not.toContain(c.gone);
    });
  }

  it('keeps the article when a layout class names the whole page as a sidebar layout', () => {
    const html = `<html><body><div class="layout-with-sidebar theiaStickySidebar"><div class="post">${prose.map((p) => `<p>${p}</p>`).join('')}</div></div><div class="sidebar"><p>Short widget text that is about something else entirely, and long enough.</p></div></body></html>`;
    expect(extractHtml(html).text).toBe(prose.join('\n\n'));
  });

  it('keeps links to other sites in a list inside the article, drops same-site link lists', () => {
    const sources = '<ul><li><a href="https://shop.example.org/item">Buy the report at the county shop</a></li><li><a href="https://archive.example.net/plans">Read the original plans in the archive</a></li></ul>';
    const recirculation = '<ul><li><a href="https://news.example.com/a">Another story from this newspaper about roads</a></li><li><a href="/b">One more story from this newspaper about schools</a></li></ul>';
    const { text } = extractHtml(page(sources + recirculation), 'https://news.example.com/library');
    expect(text).toContain('Buy the report at the county shop');
    expect(text).toContain('Read the original plans in the archive');
    expect(text).not.toContain('Another story');
    expect(text).not.toContain('One more story');
  });

  it('keeps headings, list items and block quotes of the article, and drops a heading that repeats the title', () => {
    const html = `<html><head><title>Library plans - Gazette</title></head><body><article><h1>Library plans</h1>
<p>${prose[0]}</p><h2>The vote</h2><p>${prose[1]}</p><ol><li>First point of the motion</li><li>Second point of the motion</li></ol>
<blockquote>We have waited long enough for this library, said the chair of the committee.</blockquote><p>${prose[2]}</p></article></body></html>`;
    expect(extractHtml(html).text).toBe([
      prose[0], 'The vote', prose[1], 'First point of the motion', 'Second point of the motion',
      'We have waited long enough for this library, said the chair of the committee.', prose[2],
    ].join('\n\n'));
  });

  it('removes an inline caption credit but keeps a link classed "author" inside a sentence', () => {
    const html = page('<p>The plans were drawn up by <a class="author-link" href="/people/kim">Kim Lee</a>, who also designed the station. <span class="photo-credit">Photo: Archive Service</span></p>');
    const { text } = extractHtml(html);
    expect(text).toContain('The plans were drawn up by Kim Lee, who also designed the station.');
    expect(text).not.toContain('Archive Service');
  });

  it('collapses white space and keeps single line breaks from <br>', () => {
    const html = page('<p>Line   one\n\n  of the\taddress<br>Line two of the address<br/>Line three</p>');
    expect(extractHtml(html).text).toContain('Line one of the address\nLine two of the address\nLine three');
  });
});

describe('page metadata', () => {
  it('reads title, language, canonical, date and links, resolved against the page URL', () => {
    const html = `<html lang="PT-br"><head><title> Título  da página </title>
<link rel="canonical" href="/artigo?id=7#top"><meta property="article:published_time" content="2021-06-01T10:00:00-03:00"></head>
<body><a href="/a#x">A</a><a href="b.html">B</a><a href="/a">A again</a><a href="https://other.example/c#frag">C</a>
<a href="mailto:x@example.com">mail</a><a href="javascript:void(0)">js</a><a href="#top">top</a><a href="ftp://files.example/x">ftp</a><area href="/map-area"></body></html>`;
    const result = extractHtml(html, 'https://site.example/dir/page.html');
    expect(result.title).toBe('Título da página');
    expect(result.declaredLanguage).toBe('pt-br');
    expect(result.canonicalUrl).toBe('https://site.example/artigo?id=7');
    expect(result.publishedAt).toBe('2021-06-01T13:00:00.000Z');
    // In-page anchors (#top) lead nowhere new and are left out.
    expect(result.links).toEqual([
      'https://site.example/a', 'https://site.example/dir/b.html', 'https://other.example/c', 'https://site.example/map-area',
    ]);
  });

  it('resolves links against <base href>, itself relative to the page URL', () => {
    const html = '<html><head><base href="/static/v2/"></head><body><a href="x.html">x</a><a href="../y.html">y</a><a href="//cdn.example/z">z</a></body></html>';
    expect(extractHtml(html, 'https://site.example/a/b/c.html').links).toEqual([
      'https://site.example/static/v2/x.html', 'https://site.example/static/y.html', 'https://cdn.example/z',
    ]);
  });

  it('uses an absolute <base href> when no page URL is given', () => {
    const html = '<html><head><base href="https://base.example/root/"></head><body><a href="p">p</a></body></html>';
    expect(extractHtml(html).links).toEqual(['https://base.example/root/p']);
  });

  it('keeps only absolute links when there is no URL to resolve against', () => {
    const html = '<html><head><link rel="canonical" href="/only-relative"></head><body><a href="/rel">r</a><a href="https://abs.example/x">x</a></body></html>';
    const result = extractHtml(html);
    expect(result.links).toEqual(['https://abs.example/x']);
    expect(result.canonicalUrl).toBeNull();
  });

  const dates: readonly [string, string, string | null][] = [
    ['itemprop datePublished on <time>', '<html><body><article><time itemprop="datePublished" datetime="2020-02-29T12:00:00Z">29 Feb</time><p>x</p></article></body></html>', '2020-02-29T12:00:00.000Z'],
    ['JSON-LD in @graph', '<html><head><script type="application/ld+json">{"@graph":[{"@type":"Organization","name":"x"},{"@type":"NewsArticle","datePublished":"2019-11-19T05:00:00+00:00"}]}</script></head><body></body></html>', '2019-11-19T05:00:00.000Z'],
    ['broken JSON-LD is ignored', '<html><head><script type="application/ld+json">{"datePublished": </script></head><body></body></html>', null],
    ['<time datetime> inside the article', `<html><body><div class="nav"><time datetime="2001-01-01">old</time></div><article><time datetime="2022-08-15">15 August</time>${prose.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`, '2022-08-15T00:00:00.000Z'],
    ['no date', page(''), null],
    ['an unparseable date', '<html><head><meta property="article:published_time" content="yesterday"></head><body></body></html>', null],
  ];
  for (const [name, html, expected] of dates) {
    it(`publication date: ${name}`, () => {
      expect(extractHtml(html).publishedAt).toBe(expected);
    });
  }

  it('takes og:title when there is no <title>, and ignores <title> inside SVG', () => {
    const html = '<html><head><meta property="og:title" content="From Open Graph"></head><body><svg><title>icon</title></svg><p>x</p></body></html>';
    expect(extractHtml(html).title).toBe('From Open Graph');
  });

  it('reports no language when none is declared', () => {
    expect(extractHtml('<html><body><p>x</p></body></html>').declaredLanguage).toBeNull();
  });
});

describe('robustness', () => {
  it('handles an empty page and white space', () => {
    for (const html of ['', '   \n\t', '<!doctype html>', '<html><head></head><body></body></html>']) {
      expect(extractHtml(html)).toEqual({ title: '', text: '', declaredLanguage: null, canonicalUrl: null, publishedAt: null, links: [], mainLinks: [] });
    }
  });

  it('extracts text that is not wrapped in any element', () => {
    expect(extractHtml('Just a line of plain text.').text).toBe('Just a line of plain text.');
  });

  it('copes with malformed HTML: unclosed and stray tags, no html/body', () => {
    const html = `<title>Broken</title><div class="content"><p>${prose[0]}<p>${prose[1]}</span></div></div></table><p>${prose[2]}<b>`;
    expect(extractHtml(html).text).toBe(prose.join('\n\n'));
  });

  it('keeps non-Latin text from a decoded string as it is', () => {
    const russian = [
      'Городской совет утвердил план строительства новой библиотеки, которая откроется в следующем году.',
      'Жители смогут ознакомиться с проектом на открытом собрании в старой ратуше, где архитекторы ответят на вопросы.',
    ];
    const html = `<html lang="ru"><head><meta charset="windows-1251"><title>Библиотека</title></head><body><div class="text">${russian.map((p) => `<p>${p}</p>`).join('')}</div></body></html>`;
    const result = extractHtml(html);
    expect(result.text).toBe(russian.join('\n\n'));
    expect(result.title).toBe('Библиотека');
    expect(result.declaredLanguage).toBe('ru');
  });

  it('decodes entities once', () => {
    expect(extractHtml('<p>Fish &amp; chips &lt;3 &#8364;5 &nbsp;only&hellip; &amp;amp;</p>').text).toBe('Fish & chips <3 €5 only… &amp;');
  });

  it('walks 100,000 nested elements without overflowing the stack', () => {
    const depth = 100_000;
    const html = `<html><body>${'<div>'.repeat(depth)}${prose[0]}${'</div>'.repeat(depth)}${'<span>'.repeat(depth)}tail words here${'</span>'.repeat(depth)}</body></html>`;
    const result = extractHtml(html);
    expect(result.text).toContain(prose[0]);
  });

  it('rejects a non-string', () => {
    expect(() => parseHtml(42 as unknown as string)).toThrow('Expected `html` to be a string, got number');
  });
});

describe('working on a crawler\'s $', () => {
  const html = page('<div class="related"><ul><li><a href="/next-story">The next story about the library and its readers</a></li></ul></div>', {
    before: '<nav><a href="/menu-link">Menu link</a></nav>',
  });

  it('gives the same result on crawlee\'s $ (htmlparser2 via _useHtmlParser2) as on parseHtml', () => {
    // How @crawlee/cheerio 3.x builds the $ it hands to request handlers.
    const crawlee$ = load(html, { xmlMode: false, _useHtmlParser2: true } as Parameters<typeof load>[1]);
    expect(extractPage(crawlee$, 'https://example.com/x')).toEqual(extractHtml(html, 'https://example.com/x'));
  });

  it('does not change the document: every link is still there for enqueueing afterwards', () => {
    const $ = parseHtml(html);
    const before = $.html();
    const result = extractPage($, 'https://example.com/x');
    expect($.html()).toBe(before);
    expect($('a').map((_, a) => $(a).attr('href')).get()).toEqual(['/menu-link', '/next-story']);
    expect(result.links).toEqual(['https://example.com/menu-link', 'https://example.com/next-story']);
    expect(result.text).not.toContain('next story');
  });

  it('can extract the same $ twice with the same result', () => {
    const $ = parseHtml(html);
    expect(extractPage($)).toEqual(extractPage($));
  });
});

describe('link-rich articles', () => {
  it('keeps an encyclopedia-style article whose paragraphs are a third links, rather than cleaning it all away', () => {
    const para = (i: number) => `<p>The <a href="/w/${i}a">river basin</a> drains an area of about <a href="/w/${i}b">twelve thousand square kilometres</a>, and its <a href="/w/${i}c">tributaries</a> rise in the hills north of the plain (${i}).</p>`;
    const sections = [0, 1, 2].map((s) => `<div class="section"><h2>Part ${s}</h2>${[0, 1, 2].map((i) => para(s * 3 + i)).join('')}</div>`).join('');
    const html = `<html><body><nav><a href="/">Home</a> <a href="/random">Random article</a></nav><div id="content">${sections}</div></body></html>`;
    const { text } = extractHtml(html, 'https://wiki.example/w/River');
    expect(text.split('\n\n')).toHaveLength(12);
    expect(text).toContain('rise in the hills north of the plain (8).');
    expect(text).not.toContain('Random article');
  });
});
