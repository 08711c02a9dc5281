/**
 * Readability.js (on linkedom) as the extraction scripts' baseline: eval-extraction.ts and
 * survey-site-extraction.ts measure neardup's extractor beside it.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/**
 * Readability's text of a page; '' when it finds nothing or throws (it does on a few pages whose
 * linkedom tree has no <body> above its candidate), which the scripts then score as an empty output.
 */
export function readabilityText(html: string): string {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
    return article?.textContent ?? '';
  } catch {
    return '';
  }
}
