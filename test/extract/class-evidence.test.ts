import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/extract/extract-page.js';

// Class and id words are evidence about an element, weighed against the prose it holds; they
// never veto a post on their own. The pages are hand-written after the templates of common blog
// platforms (Blogger, TypePad, WordPress, Movable Type), each with furniture that holds real prose.

const post = [
  'The harbour board voted on Tuesday to rebuild the old stone pier, which was damaged in the storms of last winter and has been closed since.',
  'Engineers expect the work to take eighteen months, and the fishing fleet will use the temporary pontoons by the lifeboat station until then.',
  'Residents who want to see the plans can visit the harbour office on weekday mornings, where the drawings will be on display until the end of May.',
];
const postHtml = post.map((p) => `<p>${p}</p>`).join('\n');
const postText = post.join('\n\n');

/** Prose that is not the article: an "about me" box, comments, teasers. */
const aside = (n: number, topic: string) =>
  Array.from({ length: n }, (_, i) =>
    `<p>${topic} number ${i + 1}: a paragraph long enough to count as prose, with a comma or two, and nothing to do with the pier.</p>`).join('\n');

function page(body: string, title = 'Harbour board votes to rebuild the pier'): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
}

describe('class words as evidence', () => {
  it('returns a Blogger post inside <div class="widget Blog"> beside a sidebar of widgets holding as much prose', () => {
    const html = page(`
<div id="outer-wrapper"><div id="header-wrapper"><div class="header section" id="header"><div class="widget Header" id="Header1">
  <h1>Notes from the harbour</h1><p class="description">A blog about boats, tides and the people who work on the water, written since 2009.</p></div></div></div>
<div id="content-wrapper">
  <div id="main-wrapper"><div class="main section" id="main"><div class="widget Blog" id="Blog1"><div class="blog-posts hfeed">
    <div class="post hentry"><h3 class="post-title entry-title">Harbour board votes to rebuild the pier</h3>
      <div class="post-body entry-content">${postHtml}</div>
      <div class="post-footer"><span class="post-author vcard">Posted by <a href="/profile">Sam</a></span> <span class="post-labels">Labels: <a href="/search/label/pier">pier</a></span></div>
    </div></div></div></div></div>
  <div id="sidebar-wrapper"><div class="sidebar section" id="sidebar">
    <div class="widget Profile" id="Profile1"><h2>About Me</h2><div class="widget-content">${aside(3, 'About me')}</div></div>
  </div></div>
</div></div>`);
    expect(extractHtml(html).text).toBe(postText);
  });

  it('returns a TypePad post whose class names its author, when the comments below it are longer', () => {
    const html = page(`
<div id="container"><div id="pagebody"><div id="alpha"><div id="alpha-inner" class="pkg">
  <div class="entry-category-news entry-author-sam_lee entry-type-post entry" id="entry-6a00d8341">
    <h3 class="entry-header">Harbour board votes to rebuild the pier</h3>
    <div class="entry-content"><div class="entry-body">${postHtml}</div></div>
    <div class="entry-footer"><p class="entry-footer-info">Posted at 09:15 AM in <a href="/news/">News</a> | <a href="/permalink">Permalink</a></p></div>
  </div>
  <a id="comments"></a>
  <div class="comments" id="all-comments"><h3 class="comments-header">Comments</h3><div class="comments-content">${aside(8, 'Comment')}</div></div>
</div></div>
<div id="beta"><div class="module-about module"><h2 class="module-header">About</h2><div class="module-content">${aside(1, 'About this blog')}</div></div></div>
</div></div>`);
    expect(extractHtml(html).text).toBe(postText);
  });

  it('returns a WordPress post whose class carries taxonomy words (tag-promotion, author-admin) beside a longer sidebar', () => {
    const html = page(`
<div class="wrapper"><div class="middle"><div id="content">
  <div id="post-99461" class="post-99461 post type-post hentry category-news tag-promotion tag-social author-admin">
    <h1>Harbour board votes to rebuild the pier</h1>${postHtml}</div>
</div>
<div id="sidebar">${aside(4, 'Sidebar teaser')}</div></div></div>`);
    expect(extractHtml(html).text).toBe(postText);
  });

  it('drops a byline block whose class mixes a post word with a furniture word, inside the post', () => {
    const html = page(`<div class="post">${postHtml.replace('</p>', '</p><div class="post-meta">Posted by <a href="/sam">Sam Lee</a> on 4 May 2024 in <a href="/news">News</a></div>')}</div>`);
    const { text } = extractHtml(html);
    expect(text).toBe(postText);
    expect(text).not.toContain('Posted by');
  });

  it('keeps pasted text wrapped in an inline element classed as a byline', () => {
    // Text pasted from a word processor keeps the span it was copied from, around whole paragraphs.
    const html = page(`<div class="post"><div class="post-body"><span class="byline-author">Posted by Sam Lee, harbour correspondent</span><br>
<span class="byline-author"><b style="font-weight:normal">${post[0]}<br><br>${post[1]}<br><br></b></span>
<span class="byline-author"><b style="font-weight:normal">${post[2]}<br><br>${post[0].replace('Tuesday', 'Monday')}</b></span></div></div>`);
    const { text } = extractHtml(html);
    for (const p of post) expect(text).toContain(p);
  });

  it('sets aside a flat comment thread that starts at a "N Comments" heading in the post\'s own container', () => {
    const html = page(`<div id="center"><h3>Harbour board votes to rebuild the pier</h3>${postHtml}
<p class="posted">Posted by Sam on 4 May 2024 | <a href="/permalink">Permalink</a></p>
<h2><a id="comments"></a>12 Comments</h2>
${aside(6, 'Flat comment')}<p class="posted">Posted by: Reader | 5 May 2024</p></div>`);
    const { text } = extractHtml(html);
    expect(text).toContain(post[2]);
    expect(text).not.toContain('Flat comment');
  });

  it('does not clean away the block that holds most of the article for its share buttons', () => {
    const html = page(`<div id="content-inner"><h1>Harbour board votes to rebuild the pier</h1>
<div class="postcontent-inner"><iframe src="https://www.facebook.com/plugins/like.php"></iframe><iframe src="https://platform.twitter.com/widgets/tweet_button.html"></iframe>
<div>${postHtml}</div></div></div>
<div id="author-box" class="post">${aside(2, 'Author biography')}</div>`);
    expect(extractHtml(html).text).toBe(postText);
  });

  it('drops <aside id="sidebar"> even when it holds most of the page\'s prose (a furniture tag and a furniture word)', () => {
    const html = page(`<div id="content"><div class="post">${postHtml}</div>
<aside id="sidebar">${['Most popular', 'Latest video', 'Concept cars'].map((t) => `<section><article><div class="text">${aside(2, t)}</div></article></section>`).join('')}</aside></div>`);
    const { text } = extractHtml(html);
    expect(text).toBe(postText);
  });

  it('gives a container that the page renders twice (a hidden second copy) once', () => {
    const html = page(`<article><div id="desktop-copy" class="story">${postHtml}</div><div id="mobile-copy" class="story">${postHtml}</div></article>`);
    expect(extractHtml(html).text).toBe(postText);
  });

  it('keeps lines a text repeats on purpose inside one container', () => {
    const line = 'Drink one glass of water within thirty minutes after your workout.';
    const html = page(`<div class="article">${postHtml}<h3>Monday</h3><p>${line}</p><h3>Tuesday</h3><p>${line}</p></div>`);
    const { text } = extractHtml(html);
    expect(text.split(line).length - 1).toBe(2);
  });

  it('keeps a sentence-long div with a link in it, as Readability keeps the paragraph it makes of it', () => {
    const sentence = 'Today it is official: every student can read the harbour plans for free by <a href="https://plans.example.org/student">filling in this form</a>.';
    const html = page(`<div id="post">${postHtml}<div>${sentence}</div></div>`);
    expect(extractHtml(html).text).toContain('every student can read the harbour plans for free by filling in this form.');
  });
});
