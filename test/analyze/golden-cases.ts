/**
 * Inputs and parameter sets whose analyzeText results are pinned in fixtures/golden-analyses.json:
 * every dev page's main text, edited copies of a few of them, samples in many languages and
 * scripts, and edge cases. Recorded once from the reference implementation (record-golden.ts);
 * golden-analyses.test.ts checks that every fingerprint, text hash, language and count is unchanged,
 * so that speed work on the pipeline can never change an output silently.
 */
import { join } from 'node:path';
import { fingerprintToHex } from '../../src/fingerprint/fingerprint-codec.js';
import { analyzeNormalizedText } from '../../src/analyze/analyze-normalized-text.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { NORMALIZER_VERSION } from '../../src/text/normalizer-version.js';
import type { FingerprintParams, HashName } from '../../src/types.js';
import { loadDevTruth } from '../helpers/dev-texts.js';
import { lcgRandom } from '../helpers/seeded-random.js';

export const GOLDEN_FILE = join(import.meta.dirname, 'fixtures', 'golden-analyses.json');

/** Parameter sets: both hashes, shingles of 1, 2, 3 and 5 words, both weightings (not every product). */
export const GOLDEN_PARAMS: readonly FingerprintParams[] = (() => {
  const out: FingerprintParams[] = [];
  for (const hash of ['murmur', 'rabin'] as HashName[]) {
    for (const shingleSize of [1, 2, 3, 5]) out.push({ distance: 3, shingleSize, hash, weighting: 'unit', normalizerVersion: NORMALIZER_VERSION });
    out.push({ distance: 3, shingleSize: 3, hash, weighting: 'count', normalizerVersion: NORMALIZER_VERSION });
  }
  return out;
})();

const SAMPLES: readonly string[] = [
  'Near-duplicate detection finds web pages whose main text is almost the same, such as mirrors, syndicated articles and copies with a changed template.',
  'Поиск почти одинаковых документов находит веб-страницы, основной текст которых почти совпадает: зеркала, перепечатки статей и копии с изменённым шаблоном.',
  'La detección de documentos casi duplicados encuentra páginas web cuyo texto principal es casi el mismo, como espejos, artículos sindicados y copias con otra plantilla.',
  'La detecció de documents gairebé duplicats troba pàgines web amb el mateix text principal, com ara miralls, articles sindicats i còpies amb una altra plantilla.',
  'La détection de documents presque dupliqués trouve les pages web dont le texte principal est presque le même, comme les miroirs, les articles syndiqués et les copies.',
  'Die Erkennung von Beinahe-Duplikaten findet Webseiten, deren Haupttext fast gleich ist, etwa Spiegelseiten, übernommene Artikel und Kopien mit anderer Vorlage.',
  '近似重复文档检测可以找到主要文本几乎相同的网页，例如镜像网站、转载文章以及更换了模板的副本。',
  'ほぼ重複した文書の検出は、ミラーサイトや転載記事のように本文がほとんど同じウェブページを見つけます。',
  'Il rilevamento dei documenti quasi duplicati trova le pagine web il cui testo principale è quasi lo stesso, come i siti specchio, gli articoli ripubblicati e le copie con un altro modello grafico.',
  'A deteção de documentos quase duplicados encontra páginas da internet cujo texto principal é quase o mesmo, como espelhos, artigos republicados e cópias com outro modelo.',
  'Het opsporen van bijna identieke documenten vindt webpagina\'s waarvan de hoofdtekst vrijwel hetzelfde is, zoals spiegelsites, overgenomen artikelen en kopieën met een ander sjabloon.',
  'Att hitta nästan identiska dokument betyder att man letar efter webbsidor vars huvudtext är nästan densamma, till exempel speglar, återpublicerade artiklar och kopior med en annan mall.',
  'A majdnem azonos dokumentumok felismerése olyan weboldalakat talál, amelyeknek a fő szövege szinte ugyanaz, például tükröket, átvett cikkeket és más sablonnal készült másolatokat.',
  'Neredeyse aynı belgelerin tespiti, ana metni hemen hemen aynı olan web sayfalarını bulur; örneğin yansı siteler, yeniden yayımlanan makaleler ve başka bir şablonla yapılmış kopyalar.',
  'Detectarea documentelor aproape duplicate găsește paginile web al căror text principal este aproape același, cum ar fi oglinzile, articolele preluate și copiile cu alt șablon.',
  'Detekce téměř duplicitních dokumentů najde webové stránky, jejichž hlavní text je téměř stejný, například zrcadla, převzaté články a kopie s jinou šablonou.',
  'يكتشف البحث عن المستندات شبه المكررة صفحات الويب التي يكون نصها الرئيسي متطابقا تقريبا، مثل المواقع المرآة والمقالات المعاد نشرها والنسخ ذات القالب المختلف.',
  'Wykrywanie prawie identycznych dokumentów znajduje strony internetowe, których główny tekst jest niemal taki sam, na przykład serwery lustrzane, przedrukowane artykuły i kopie z innym szablonem.',
  'Η ανίχνευση σχεδόν πανομοιότυπων εγγράφων βρίσκει ιστοσελίδες των οποίων το κύριο κείμενο είναι σχεδόν το ίδιο, όπως καθρέφτες, αναδημοσιευμένα άρθρα και αντίγραφα με άλλο πρότυπο.',
  'विकिपीडिया एक मुक्त ज्ञानकोश है जिसे दुनिया भर के स्वयंसेवक मिलकर लिखते हैं और इसमें लाखों लेख हैं जो सभी के लिए उपलब्ध हैं।',
  '거의 중복된 문서 탐지는 본문이 거의 같은 웹 페이지를 찾습니다. 예를 들어 미러 사이트, 재게시된 기사, 다른 템플릿을 사용한 사본이 있습니다.',
  'การตรวจจับเอกสารที่เกือบซ้ำกันจะค้นหาหน้าเว็บที่มีข้อความหลักเกือบเหมือนกัน',
  'Пошук майже однакових документів знаходить веб-сторінки, основний текст яких майже збігається: дзеркала, передруки статей і копії з іншим шаблоном.',
  'Търсенето на почти еднакви документи намира уеб страници, чийто основен текст почти съвпада: огледала, препечатани статии и копия с друг шаблон.',
];

const EDGE_CASES: readonly string[] = [
  '', ' ', '   \n\n\t  ', 'word', 'Word', 'two words', 'three little words', 'to be or not to be', 'the the the the',
  'a\n\nb\n\nc d e f\n\ng', 'one two\r\n\r\nthree four five\rsix\u2029seven eight nine ten',
  'Ünïcödé façade naïve café résumé coöperate ﬁnancial ﬂow Ⅻ ①②③ ｆｕｌｌｗｉｄｔｈ',
  '𝐁𝐨𝐥𝐝 𝐦𝐚𝐭𝐡 letters and 😀 emoji 👍🏽 with 𝔉𝔯𝔞𝔨𝔱𝔲𝔯',
  'lone \ud800 high and \udc00 low surrogates \ud83d', '\ud83d\ude00\ud83d',
  'İstanbul İZMİR ΣΊΣΥΦΟΣ Straße STRASSE ǅungla',
  'Сopy with Cyrillic lооk-аlikе lеttеrs in а Latin text, рlеаsе', 'Pусский тeкст c лaтинскими буквaми вмecтo кирилличeских',
  'Μικτό κείμενο with Greek and Latin, Ελληνικά και English mixed together here',
  'e\u0301 combining \u0301 marks a\u0308\u0308 and \u0301start',
  'numbers 123 4.56 7,890 1st 2nd 3rd 2024-01-01 ٣٤٥ ௧௨',
  "don't can't won't it's o'clock rock'n'roll l'homme d'un aujourd'hui",
  'generously arsenal communication skies dying ugly earring proceeding yelling yyy YyY sky\'s',
  'x'.repeat(300), 'ab '.repeat(200), 'The quick brown fox. '.repeat(50),
  '漢字かなカタカナーー々〇 mixed with ASCII words and ｶﾀｶﾅ',
  '\u00a0\u2000\u3000 spaces \ufeff bom \u200b zero width \u200d joiner',
];

/** Edited copies: words replaced, paragraphs swapped, look-alike letters, upper case, a prefix. */
function variants(text: string, seed: number): string[] {
  const rand = lcgRandom(seed);
  const parts = text.split(/(\s+)/);
  const edited = parts.map((w) => (w.trim() !== '' && rand() < 0.03 ? `x${Math.floor(rand() * 1e6)}` : w)).join('');
  const paragraphs = text.split(/\n\s*\n/);
  const swapped = paragraphs.length > 2 ? [paragraphs[1], paragraphs[0], ...paragraphs.slice(2)].join('\n\n') : `${text}\n\n${text}`;
  const homoglyph = text.replace(/[aeopc]/g, (ch) => (rand() < 0.5 ? ({ a: 'а', e: 'е', o: 'о', p: 'р', c: 'с' } as Record<string, string>)[ch]! : ch));
  return [edited, swapped, homoglyph, text.toUpperCase(), text.slice(0, 300 + Math.floor(rand() * 300))];
}

/** Every golden input, named. */
export function goldenInputs(): Array<[string, string]> {
  const truth = loadDevTruth();
  const out: Array<[string, string]> = [];
  const ids = Object.keys(truth).sort();
  for (const id of ids) out.push([`dev:${id}`, truth[id]!.articleBody]);
  ids.slice(0, 12).forEach((id, i) => variants(truth[id]!.articleBody, i + 1).forEach((v, j) => out.push([`variant:${id}:${j}`, v])));
  SAMPLES.forEach((s, i) => out.push([`sample:${i}`, s]));
  EDGE_CASES.forEach((s, i) => out.push([`edge:${i}`, s]));
  // All dev texts as one (several languages, many paragraphs).
  out.push(['dev:all', ids.map((id) => truth[id]!.articleBody).join('\n\n')]);
  return out;
}

/**
 * One input's results under every parameter set, as a compact line: what analyzeText returns
 * (it validates the parameters and runs exactly this; analyze-text.ts is not imported so that this
 * check runs on the normalisation and the one-pass analysis alone).
 */
export function goldenLine(text: string): string {
  const parts: string[] = [];
  const normalized = normalizeText(text);
  for (const params of GOLDEN_PARAMS) {
    const a = analyzeNormalizedText(normalized, params);
    if (parts.length === 0) parts.push(a.textHash, a.language, String(a.tokenCount));
    parts.push(`${a.fingerprint === null ? 'null' : fingerprintToHex(a.fingerprint)}/${a.featureCount}`);
  }
  return parts.join(' ');
}
