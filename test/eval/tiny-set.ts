/** The tiny hand-labelled pair set of the eval tests (library and CLI), built in a temp folder from the dev texts. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { devTextsById } from '../helpers/dev-texts.js';

const [t1, t2, t3] = devTextsById().filter((t) => t.length > 2000) as [string, string, string];

/**
 * A tiny hand-labelled set. Copies are byte-identical (distance 0) and the three texts are
 * unrelated articles (distance far above 16), so every figure follows by hand; two labels are
 * deliberately "wrong" to get a false negative and a false positive.
 */
export async function writeTinySet(dir: string): Promise<string> {
  await writeFile(join(dir, 'a.txt'), t1);
  await writeFile(join(dir, 'a-copy.txt.gz'), gzipSync(t1));
  await writeFile(join(dir, 'b.txt'), t2);
  await writeFile(join(dir, 'c.txt'), t3);
  await writeFile(join(dir, 'c.html'), `<html><body><article>${t3.split('\n').filter((p) => p.trim() !== '').map((p) => `<p>${p}</p>`).join('')}</article></body></html>`);
  await writeFile(join(dir, 'short.txt'), 'Too short.');
  await writeFile(join(dir, 'docs.jsonl'), [JSON.stringify({ id: 7, text: t1 }), JSON.stringify({ url: 'http://u/b', text: t2 })].join('\n'));
  const pairs = [
    'a\tb\tlabel\tkind',
    'a.txt\ta-copy.txt.gz\t1\tcopy', //                 d = 0   → TP
    'a.txt\tdocs.jsonl#7\t1\tcopy', //                  d = 0   → TP
    'b.txt\tdocs.jsonl#http://u/b\t1\tcopy', //          d = 0   → TP
    'a.txt\tb.txt\t1\tmislabelled', //                  d > 16  → FN
    'short.txt\ta.txt\t1\ttoo-short', //                unjudged → FN
    'b.txt\tc.txt\t0\tdifferent', //                    d > 16  → TN
    'c.txt\tc.html\t0\tmislabelled', //                 same text → FP
  ];
  const path = join(dir, 'pairs.tsv');
  await writeFile(path, `${pairs.join('\n')}\n`);
  return path;
}

