/**
 * The small structural view of htmlparser2/domhandler nodes that extraction reads. Cheerio's `$`
 * (ours or crawlee's) holds a domhandler tree; reading its fields directly, instead of through
 * cheerio's selector API, keeps extraction to a few linear passes and never mutates the tree.
 */
import type { CheerioAPI } from 'cheerio';

/** A domhandler node as extraction sees it (element, text, comment, document, cdata, ...). */
export interface DomNode {
  /** 'tag' | 'script' | 'style' for elements; 'text', 'comment', 'root', 'cdata', 'directive'. */
  readonly type: string;
  readonly parent: DomNode | null;
  /** Present on elements, the document and CDATA sections. */
  readonly children?: readonly DomNode[];
  /** Text of text, comment and directive nodes. */
  readonly data?: string;
  /** Lower-case tag name of an element (htmlparser2 lower-cases in HTML mode). */
  readonly name?: string;
  readonly attribs?: Readonly<Record<string, string>>;
}

/** An element node. */
export interface DomElement extends DomNode {
  readonly name: string;
  readonly attribs: Readonly<Record<string, string>>;
  readonly children: readonly DomNode[];
}

export function isElement(node: DomNode): node is DomElement {
  const type = node.type;
  return type === 'tag' || type === 'script' || type === 'style';
}

export function isText(node: DomNode): boolean {
  return node.type === 'text';
}

/** The document node of a loaded page. */
export function documentOf($: CheerioAPI): DomNode {
  const root = $.root().get(0) as unknown as DomNode | undefined;
  if (root === undefined) throw new TypeError('Expected a cheerio document, got an empty selection');
  return root;
}

/** Lower-case tag name (a parse in XML mode keeps the case as written). */
export function tagName(element: DomElement): string {
  return element.name.toLowerCase();
}

/** An attribute value, or undefined. */
export function attr(element: DomElement, name: string): string | undefined {
  return element.attribs[name];
}

/**
 * All text under a node, in document order, without recursion (pages can nest 100,000 deep).
 * Script and style contents are left out unless `includeScripts`.
 */
export function textContent(node: DomNode, includeScripts = false): string {
  const parts: string[] = [];
  const stack: DomNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === 'text' || (current.type === 'cdata' && current.children === undefined)) {
      if (current.data !== undefined) parts.push(current.data);
      continue;
    }
    if (!includeScripts && current !== node && (current.type === 'script' || current.type === 'style')) continue;
    const children = current.children;
    if (children === undefined) continue;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return parts.join('');
}

/** Collapses runs of white space (including no-break spaces) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
