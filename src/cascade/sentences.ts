/**
 * Sentences and words of a raw text, for the cascade's text statistics. A sentence ends at `.`,
 * `!`, `?`, `…` (or their CJK forms), closing quotes or brackets, then a space; or at a line break.
 * Words are runs of letters (marks and apostrophes inside a word kept), lower-cased (NFKC first).
 */

const SENTENCE_END = /(?<=[.!?…。！？])["'”’»)\]]*\s+|\n+/u;

/** The sentences of a text as they are written (trimmed, empty ones left out). */
export function splitSentences(text: string): string[] {
  return text.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s !== '');
}

// Character classes (bits) of BMP code units for the scanner below.
const LETTER = 1;
const WORD_TAIL = 2; // letters, marks, apostrophes: what continues a word
const END = 4;
const CLOSE = 8;
const SPACE = 16;
const LINE_BREAK = 32;

const CLASSES = (() => {
  const table = new Uint8Array(0x10000);
  const letter = /^\p{L}$/u;
  const tail = /^[\p{L}\p{M}'’]$/u;
  const space = /^\s$/u;
  for (let cp = 0; cp < 0x10000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCharCode(cp);
    table[cp] = (letter.test(ch) ? LETTER : 0) | (tail.test(ch) ? WORD_TAIL : 0) | (space.test(ch) ? SPACE : 0);
  }
  for (const ch of '.!?…。！？') table[ch.charCodeAt(0)] |= END;
  for (const ch of '"\'”’»)]') table[ch.charCodeAt(0)] |= CLOSE;
  table[0x0a] |= LINE_BREAK;
  return table;
})();
const ASTRAL_LETTER = /^\p{L}$/u;
const ASTRAL_TAIL = /^[\p{L}\p{M}]$/u;

/** Class bits of the character at `i` and its width (class · 4 + width). */
function classAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff || i + 1 >= text.length) return (CLASSES[unit]! << 2) | 1;
  const cp = text.codePointAt(i)!;
  if (cp <= 0xffff) return 1;
  const ch = String.fromCodePoint(cp);
  return (((ASTRAL_LETTER.test(ch) ? LETTER : 0) | (ASTRAL_TAIL.test(ch) ? WORD_TAIL : 0)) << 2) | 2;
}

/** The words of a text by sentence, as ids into `words` (distinct words, in order of first occurrence). */
export interface SentenceWords {
  /** ids[0..count): each word occurrence's id. */
  readonly ids: Int32Array;
  readonly count: number;
  /** sentenceEnds[0..sentenceCount): index in `ids` just after each sentence's last word. */
  readonly sentenceEnds: Int32Array;
  readonly sentenceCount: number;
  /** The distinct words, lower-cased. */
  readonly words: readonly string[];
}

/** Whether a sentence ends at the end mark at `i`: closing quotes or brackets, then a space. */
function endsSentence(text: string, i: number): boolean {
  let j = i + 1;
  while (j < text.length && (CLASSES[text.charCodeAt(j)]! & CLOSE) !== 0) j++;
  return j < text.length && (CLASSES[text.charCodeAt(j)]! & SPACE) !== 0;
}

/**
 * The sentences of a text that have at least one word, as word ids, in one pass over the text
 * lower-cased: no string is made per word occurrence, one per distinct word. Same sentences and
 * words as splitting at SENTENCE_END and matching `\p{L}[\p{L}\p{M}'’]*` in each sentence.
 */
export function sentenceWords(text: string): SentenceWords {
  const lower = text.normalize('NFKC').toLowerCase();
  const n = lower.length;
  let ids = new Int32Array(Math.max(16, n >>> 2));
  let sentenceEnds = new Int32Array(16);
  let count = 0;
  let sentenceCount = 0;
  const idOf = new Map<string, number>();
  const words: string[] = [];
  let i = 0;
  while (i < n) {
    const c = classAt(lower, i);
    const cls = c >>> 2;
    if ((cls & LETTER) === 0) {
      const ends = (cls & LINE_BREAK) !== 0 || ((cls & END) !== 0 && endsSentence(lower, i));
      if (ends && count > 0 && (sentenceCount === 0 || sentenceEnds[sentenceCount - 1] !== count)) {
        if (sentenceCount === sentenceEnds.length) sentenceEnds = grow(sentenceEnds);
        sentenceEnds[sentenceCount++] = count;
      }
      i += c & 3;
      continue;
    }
    const start = i;
    i += c & 3;
    while (i < n) {
      const next = classAt(lower, i);
      if (((next >>> 2) & WORD_TAIL) === 0) break;
      i += next & 3;
    }
    const word = lower.slice(start, i);
    let id = idOf.get(word);
    if (id === undefined) {
      id = words.length;
      idOf.set(word, id);
      words.push(word);
    }
    if (count === ids.length) ids = grow(ids);
    ids[count++] = id;
  }
  if (count > 0 && (sentenceCount === 0 || sentenceEnds[sentenceCount - 1] !== count)) {
    if (sentenceCount === sentenceEnds.length) sentenceEnds = grow(sentenceEnds);
    sentenceEnds[sentenceCount++] = count;
  }
  return { ids, count, sentenceEnds, sentenceCount, words };
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}
