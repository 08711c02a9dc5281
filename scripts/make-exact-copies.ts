/**
 * Builds the exact-duplicate case of issue 11: N JSONL documents ({"url","text"}), of which `copies`
 * are copies of other documents of the file that differ only in case, spacing, punctuation and
 * look-alike letters (the same normalised token sequence), so deduplication must store exactly
 * N − copies, the same set every run.
 *
 *   npx tsx scripts/make-exact-copies.ts [--out /tmp/exact-copies.jsonl] [--n 20000] [--copies 4000] [--seed 11]
 *   neardup dedup /tmp/exact-copies.jsonl --data /tmp/exact-data
 *
 * Originals: 1–4 paragraphs of 40–400 random "words" drawn from a syllable vocabulary (a text no
 * language model recognises well, which is where the old character-based language detection
 * flipped between languages). A copy goes after its original in the file, at a random later place.
 * Deterministic for a given --seed. Last line: `exact-copies: documents=<n> copies=<n> expected-stored=<n> out=<file>`.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/exact-copies.jsonl' },
    n: { type: 'string', default: '20000' },
    copies: { type: 'string', default: '4000' },
    seed: { type: 'string', default: '11' },
  },
});
const n = Number(flags.n);
const copies = Number(flags.copies);
const seed = Number(flags.seed);
for (const [name, value] of [['n', n], ['copies', copies], ['seed', seed]] as const) {
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`make-exact-copies: Expected \`${name}\` to be a non-negative integer, got \`${String(flags[name])}\`\n`);
    process.exit(2);
  }
}
if (copies >= n) {
  process.stderr.write(`make-exact-copies: Expected \`copies\` to be below \`n\` (${n}), got ${copies}\n`);
  process.exit(2);
}

const random = seededRandom(seed);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const ONSETS = ['', 'b', 'k', 'd', 'f', 'g', 'h', 'j', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'ch', 'sh', 'br', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
const CODAS = ['', '', '', 'n', 's', 'r', 'l', 'k'];
const vocabulary = Array.from({ length: 5000 }, () => {
  const syllables = 1 + Math.floor(random() * 3);
  let word = '';
  for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
  return word;
});

/** An original: paragraphs of words (canonical spelling: lower case, one space, blank lines). */
function original(): string[][] {
  const paragraphs = 1 + Math.floor(random() * 4);
  const total = 40 + Math.floor(random() * 361);
  return Array.from({ length: paragraphs }, () => Array.from({ length: Math.max(1, Math.round(total / paragraphs)) }, () => pick(vocabulary)));
}

const render = (doc: string[][]) => doc.map((p) => p.join(' ')).join('\n\n');

/** Latin letters and the Cyrillic / Greek letters that look like them (same case). */
const LOOK_ALIKES: Readonly<Record<string, readonly string[]>> = {
  a: ['а'], e: ['е'], o: ['о', 'ο'], p: ['р'], c: ['с'], i: ['і'], j: ['ј'], s: ['ѕ'],
  A: ['А', 'Α'], E: ['Е', 'Ε'], O: ['О', 'Ο'], P: ['Р', 'Ρ'], C: ['С'], T: ['Т', 'Τ'], H: ['Н', 'Η'], K: ['К', 'Κ'], M: ['М', 'Μ'], B: ['В', 'Β'],
};
const SPACES = [' ', '  ', '\t', '\u00a0', ' \n'];
const MARKS = [',', '.', ';', ':', '!', '?', '—', '-', '"', '(', ')', '…'];

/** The same token sequence written differently: case, spacing, punctuation, look-alike letters. */
function perturbed(doc: string[][]): string {
  const caseMode = Math.floor(random() * 3); // 0 as is, 1 capitalised words, 2 random letters upper case
  const paragraphs = doc.map((words) => words.map((word, i) => {
    let w = '';
    for (const ch of word) {
      let c = caseMode === 2 && random() < 0.3 ? ch.toUpperCase() : ch;
      if (caseMode === 1 && w === '') c = ch.toUpperCase();
      const alikes = LOOK_ALIKES[c];
      if (alikes !== undefined && random() < 0.2) c = pick(alikes);
      w += c;
    }
    if (i === 0) return w;
    let sep = pick(SPACES);
    if (random() < 0.15) sep = `${pick(MARKS)}${sep}`;
    if (random() < 0.05) sep = `${sep}${pick(MARKS)} `;
    return sep + w;
  }).join(''));
  const breaks = ['\n\n', '\r\n\r\n', '\n\n\n', '\n \n'];
  return paragraphs.map((p, i) => (i === 0 ? '' : pick(breaks)) + p).join('') + (random() < 0.5 ? '\n' : '');
}

const originals = Array.from({ length: n - copies }, original);
// Each copy names an original and is placed after it.
const lines: { url: string; text: string; at: number }[] = originals.map((doc, i) => ({ url: `https://example.org/doc/${i}`, text: render(doc), at: i }));
for (let c = 0; c < copies; c++) {
  const of = Math.floor(random() * originals.length);
  const at = of + random() * (originals.length - of);
  lines.push({ url: `https://copy.example.net/doc/${of}/${c}`, text: perturbed(originals[of]!), at });
}
lines.sort((x, y) => x.at - y.at);
const out = resolve(flags.out);
writeFileSync(out, lines.map(({ url, text }) => JSON.stringify({ url, text })).join('\n') + '\n');
process.stdout.write(`exact-copies: documents=${lines.length} copies=${copies} expected-stored=${n - copies} out=${out}\n`);
