/**
 * What marks an element as page furniture rather than content: tag names, ARIA roles and the
 * words of its class and id. The words are general web vocabulary (the ones Readability,
 * trafilatura and boilerpipe key on), not any one site's names.
 */

/** Elements whose content is never text a reader sees as the page's content. */
export const ignoredTags: ReadonlySet<string> = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'canvas', 'iframe', 'object', 'embed', 'applet',
  'video', 'audio', 'source', 'track', 'map', 'area', 'img', 'picture', 'button', 'select', 'option', 'optgroup',
  'input', 'textarea', 'datalist', 'meter', 'progress', 'head', 'title', 'meta', 'link', 'base', 'param', 'frame',
  'frameset', 'dialog',
]);

/**
 * Block-level elements: text on either side of one of these belongs to different paragraphs.
 * Everything else (span, a, em, custom elements...) is inline.
 */
export const blockTags: ReadonlySet<string> = new Set([
  'html', 'body', 'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td',
  'th', 'caption', 'ul', 'legend', 'listing', 'plaintext', 'xmp', 'noframes',
]);

export const headingTags: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Structural elements that hold navigation or page furniture by definition. */
export const furnitureTags: ReadonlySet<string> = new Set(['nav', 'aside', 'footer', 'header', 'menu', 'figcaption']);

/** ARIA landmark roles of page furniture. */
export const furnitureRoles: ReadonlySet<string> = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'toolbar', 'search', 'dialog',
  'alertdialog', 'alert', 'tablist',
]);

/**
 * Class/id words of comment threads: never the article, even when they hold more text than it.
 * Matched against single words of the class and id (split at spaces, `-`, `_` and camelCase humps).
 */
export const strongBoilerplateWords: RegExp = /^(?:comments?|commentlist|commenting|disqus|respond|replies|reply)$/;

/**
 * Class/id words of page furniture: related and recommended lists, share bars, cookie and
 * subscription prompts, advertising, navigation, sidebars, headers, footers, bylines. Such words
 * also turn up in wrappers of the whole page (`<div class="no-sidebar">`,
 * `<div class="ad-off-canvas-pusher">`), so an element marked by them is furniture only when it does
 * not hold most of the page's prose.
 */
export const weakBoilerplateWords: RegExp = new RegExp(
  '^(?:' + [
    'related', 'recommend\\w*', 'recirc\\w*', 'trending', 'popular', 'mostread', 'mostpopular', 'morestories',
    'outbrain', 'taboola', 'zergnet', 'revcontent', 'mgid',
    'share', 'shares', 'sharing', 'sharethis', 'addthis', 'social', 'sociallinks',
    'cookie\\w*', 'consent', 'gdpr', 'newsletter\\w*', 'subscribe\\w*', 'subscription', 'signup', 'paywall', 'regwall',
    'advert\\w*', 'ads?', 'adslot', 'adunit', 'adsense', 'dfp', 'gpt', 'sponsor\\w*', 'promo\\w*', 'banner',
    'breadcrumbs?', 'pagination', 'pager', 'popup', 'modal', 'overlay', 'lightbox',
    'skip', 'print', 'toolbar', 'tags', 'taglist', 'topics', 'copyright', 'disclaimer',
    'sidebar', 'rail', 'widget\\w*', 'module', 'moduletable', 'header', 'masthead', 'footer', 'nav', 'navbar', 'navigation', 'menu', 'submenu',
    'byline', 'author', 'dateline', 'timestamp', 'meta', 'caption', 'credit', 'offscreen', 'sr', 'visually',
    // Run together with the post they belong to: postmetadata, entryfooter, articletags, storyshare.
    '(?:post|entry|article|story|blog)(?:meta\\w*|footer|header|author|byline|tags|share\\w*|social|related)',
  ].join('|') + ')$',
);

/** Class/id words of article bodies (Readability's positive list, by word). */
export const positiveWords: RegExp =
  /^(?:article\w*|body|content|entry|hentry|main|page|post|text|blog|story|prose|richtext|rte)$|^(?:article|blog|post|entry|story|main)\w*(?:body|content|text)$/;

/**
 * Class/id words of posts embedded in an article: `twitter-tweet`, `instagram-media`,
 * `social-media-embed` (an embedding word together with a social-network word).
 */
export const embeddedPostWords: RegExp = /^(?:embed|embedded|embeds|oembed|tweet|media|post)$/;
export const socialNetworkWords: RegExp = /^(?:social|twitter|tweet|instagram|facebook|tiktok|youtube|reddit|mastodon|bluesky|threads)$/;

/** Class/id words that lower a block's score without excluding it. */
export const negativeWords: RegExp =
  /^(?:combx|contact|foot\w*|masthead|media|meta|scroll|shoutbox|shopping|widget|hidden|sidebar|extra|legends?|remark|supplemental)$/;

/**
 * Splits class and id values into lower-case words: `relatedArticles share_bar` →
 * `related`, `articles`, `share`, `bar`.
 */
export function classWords(value: string): string[] {
  if (value === '') return [];
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_\-:.]+/)
    .filter((word) => word !== '');
}

/**
 * A heading that opens a comment section: "Comments", "12 Comments", "3 Responses to “Title”",
 * "One thought on …", "Leave a Reply", "Reader comments" (and the same words in a few languages).
 */
export const commentSectionHeading: RegExp = new RegExp(
  '^(?:(?:\\d+|no|one|reader|readers\'?)\\s+)?' +
  '(?:comments?|responses?|replies|reactions|trackbacks?|pingbacks?|thoughts?|comentarios?|commentaires?|kommentare?|комментари[йия])' +
  '(?:\\s*\\(\\d+\\))?(?:\\s+(?:to|on|so far)\\b.*)?\\s*:?$' +
  '|^(?:leave|post|add|write|submit) (?:a |your )?(?:comment|reply|response)\\b',
  'iu',
);
