/**
 * Closed word classes the `generated` features count, by language (ISO 639-3): pronominal nouns
 * (personal, demonstrative, interrogative and indefinite pronouns) and pronominal adverbs (here,
 * there, then, why, ...). Languages without lists give zero for those features.
 */
import { stopWordsFor } from '../text/language-resources.js';
import { WordLookup } from './sentences.js';

const PRONOUNS: Readonly<Record<string, string>> = {
  eng: 'i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its itself we us our ours ourselves they them their theirs themselves this that these those who whom whose what which whoever whatever someone somebody something anyone anybody anything everyone everybody everything noone nobody nothing one',
  rus: 'я меня мне мной ты тебя тебе тобой он его ему им нём она её ей ею ней оно мы нас нам нами вы вас вам вами они их ими них себя себе собой этот эта это эти этого этой этих тот та то те того той тех кто что который которая которое которые кого чего кому чему никто ничто некто нечто кто-то что-то',
  por: 'eu me mim comigo tu te ti você vocês ele ela eles elas nós nos conosco vós lhe lhes se si este esta isto estes estas esse essa isso esses essas aquele aquela aquilo quem que qual quais alguém ninguém algo nada tudo',
  deu: 'ich mich mir du dich dir er ihn ihm sie ihr es wir uns euch ihnen sich dieser diese dieses jener jene jenes wer wen wem wessen was welcher welche welches jemand niemand etwas nichts man alles',
  spa: 'yo me mí conmigo tú te ti usted ustedes él ella ellos ellas nosotros nosotras nos vosotros os le les se sí este esta esto estos estas ese esa eso esos esas aquel aquella aquello quien quienes que cual cuales alguien nadie algo nada todo',
  fra: 'je me moi tu te toi il elle lui ils elles eux nous vous leur se soi ce ceci cela ça celui celle ceux celles qui que quoi lequel laquelle quelqu\'un personne rien tout on',
  ita: 'io me mi tu te ti lui lei egli ella esso essa noi ci voi vi loro essi esse si sé questo questa questi queste quello quella quelli quelle chi che cui quale quali qualcuno nessuno qualcosa niente nulla tutto',
};

const PRONOMINAL_ADVERBS: Readonly<Record<string, string>> = {
  eng: 'here there where when then now how why thus hence therefore thereby wherever whenever somewhere anywhere everywhere nowhere somehow anyhow sometimes always never elsewhere hereby whereby therein wherein thereafter hereafter meanwhile',
  rus: 'здесь тут там где куда откуда туда сюда оттуда отсюда когда тогда всегда никогда иногда как так почему потому зачем затем поэтому везде нигде всюду отчего оттого сейчас теперь где-то когда-то',
  por: 'aqui ali aí lá onde quando então agora como porquê assim sempre nunca portanto daí dali daqui aonde',
  deu: 'hier da dort wo wann dann jetzt wie warum so deshalb daher darum dabei damit davon dazu immer nie niemals irgendwo überall nirgends woher wohin',
  spa: 'aquí ahí allí allá donde dónde cuando cuándo entonces ahora como cómo así siempre nunca jamás por tanto también luego',
  fra: 'ici là où quand alors maintenant comment pourquoi ainsi donc toujours jamais partout ailleurs',
  ita: 'qui qua lì là dove quando allora ora adesso come perché così sempre mai ovunque dunque quindi',
};

function toSets(lists: Readonly<Record<string, string>>): ReadonlyMap<string, ReadonlySet<string>> {
  return new Map(Object.entries(lists).map(([lang, words]) => [lang, new Set(words.split(' '))]));
}

/** Built once at load; immutable afterwards. */
const PRONOUN_SETS = toSets(PRONOUNS);
const ADVERB_SETS = toSets(PRONOMINAL_ADVERBS);
const EMPTY: ReadonlySet<string> = new Set();

/** Word class bits of wordClassLookupFor: a stop word of the language (language-resources.ts), a pronominal noun, a pronominal adverb. */
export const FUNCTION_WORD = 1;
export const PRONOUN = 2;
export const PRONOMINAL_ADVERB = 4;

/** Stop words, pronominal nouns and adverbs of a language, each with its class bits. */
function classMapOf(language: string): ReadonlyMap<string, number> {
  const map = new Map<string, number>();
  const add = (words: ReadonlySet<string>, bit: number) => {
    for (const w of words) map.set(w, (map.get(w) ?? 0) | bit);
  };
  add(stopWordsFor(language), FUNCTION_WORD);
  add(pronounsFor(language), PRONOUN);
  add(pronominalAdverbsFor(language), PRONOMINAL_ADVERB);
  return map;
}

/**
 * The class bits (FUNCTION_WORD | PRONOUN | PRONOMINAL_ADVERB) of the words of `language` that have
 * any (a word not in it has none), as a lookup by span: a scanned word is looked up once, not in
 * three sets, and without a string made for it. Builds the lookup (a few hundred words): callers
 * keep it (GeneratedModel does, for its languages).
 */
export function wordClassLookupFor(language: string): WordLookup {
  return new WordLookup(classMapOf(language));
}

/** Pronominal nouns of a language (empty when it has no list). */
function pronounsFor(language: string): ReadonlySet<string> {
  return PRONOUN_SETS.get(language) ?? EMPTY;
}

/** Pronominal adverbs of a language (empty when it has no list). */
function pronominalAdverbsFor(language: string): ReadonlySet<string> {
  return ADVERB_SETS.get(language) ?? EMPTY;
}
