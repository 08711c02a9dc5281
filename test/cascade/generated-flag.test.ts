import { DecisionTreeClassifier } from 'ml-cart';
import { describe, expect, it } from 'vitest';
import { evaluateForest, evaluateTree, forestScore, treeFromMlCart } from '../../src/cascade/decision-tree.js';
import { GENERATED_FEATURE_NAMES, generatedFeatures } from '../../src/cascade/generated-features.js';
import { GENERATED_MODEL, featureRanges, generatedFlag, outsideRange, parseGeneratedModel } from '../../src/cascade/generated-flag.js';
import {
  contentWordSalad, generateText, GENERATOR_NAMES, shuffleOwnSentences, stitchedSentences, templateFill, trainMarkov, markovText,
} from '../../src/cascade/text-generators.js';
import { stopWordsFor } from '../../src/text/language-resources.js';
import { CascadeModelError } from '../../src/errors.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { defaultConfig } from '../../src/config.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { devTexts } from './dev-texts.js';

/** The stage as shipped: config/default.json's minWords and minScore. */
const options = defaultConfig().cascade.generated;

describe('generated features', () => {
  it('gives one value per feature name, the method\'s ones as defined', () => {
    const text = 'Here we are. There they went, then they came back here.\n\nWhy? Because it rained there.';
    const { values, words } = generatedFeatures(text, 'eng');
    expect(values).toHaveLength(GENERATED_FEATURE_NAMES.length);
    expect(words).toBe(16);
    const f = Object.fromEntries(GENERATED_FEATURE_NAMES.map((n, i) => [n, values[i]!]));
    expect(f.maxSentenceWords).toBe(8);
    expect(f.pronounShare).toBeCloseTo(4 / 16); // we they they it
    // Adverb shares per sentence: 1/3 (here), 3/8 (there then here), 1/1 (why), 1/4 (there).
    const shares = [1 / 3, 3 / 8, 1, 1 / 4];
    const m = shares.reduce((a, b) => a + b) / 4;
    expect(f.pronominalAdverbVariance).toBeCloseTo(shares.reduce((a, s) => a + (s - m) ** 2, 0) / 4);
  });

  it('gives the same features from the analysis\'s normalised text as from the raw text', () => {
    for (const t of devTexts) expect(generatedFeatures(t.text, 'eng', { normalized: normalizeText(t.text) })).toEqual(generatedFeatures(t.text, 'eng'));
    const flags = devTexts.map((t) => generatedFlag(t.text, 'eng', options, GENERATED_MODEL, normalizeText(t.text)));
    expect(flags).toEqual(devTexts.map((t) => generatedFlag(t.text, 'eng', options)));
  });

  it('gives a spoofed copy its original\'s features', () => {
    // Latin a, e, o, p, c swapped for their Cyrillic look-alikes in every other word.
    const swap: Record<string, string> = { a: '\u0430', e: '\u0435', o: '\u043e', p: '\u0440', c: '\u0441', P: '\u0420', A: '\u0410' };
    for (const t of devTexts.slice(0, 4)) {
      const spoofed = t.text.split(' ').map((w, i) => (i % 2 === 0 ? [...w].map((ch) => swap[ch] ?? ch).join('') : w)).join(' ');
      expect(spoofed).not.toBe(t.text);
      expect(generatedFeatures(spoofed, 'eng')).toEqual(generatedFeatures(t.text, 'eng'));
    }
  });

  it('sees shuffled sentences as less cohesive than the original', () => {
    const random = seededRandom(3);
    const at = GENERATED_FEATURE_NAMES.indexOf('cohesionRatio');
    let lower = 0;
    for (const t of devTexts) {
      if (generatedFeatures(shuffleOwnSentences(t.text, random), 'eng').values[at]! < generatedFeatures(t.text, 'eng').values[at]!) lower++;
    }
    expect(lower).toBeGreaterThanOrEqual(7);
  });
});

describe('text generators', () => {
  it('are deterministic for a seed and reach the asked length', () => {
    const others = devTexts.slice(1).map((t) => t.text);
    for (const name of GENERATOR_NAMES) {
      const a = generateText(name, others, 200, seededRandom(5));
      expect(generateText(name, others, 200, seededRandom(5))).toBe(a);
      expect(a.split(/\s+/).length).toBeGreaterThanOrEqual(200);
    }
  });

  it('content-word salad has no stop words; template fill keeps the sentences\' function words; stitched sentences join two sources', () => {
    const others = devTexts.slice(1).map((t) => t.text);
    const stop = stopWordsFor('eng');
    const salad = contentWordSalad(others, 150, seededRandom(3)).toLowerCase().split(/[^\p{L}]+/u).filter((w) => w !== '');
    expect(salad.filter((w) => stop.has(w))).toEqual([]);
    const filled = templateFill([devTexts[0]!.text], 150, seededRandom(4));
    const functionWords = (text: string) => text.toLowerCase().split(/[^\p{L}]+/u).filter((w) => stop.has(w)).length;
    // The function words stay while the content words change.
    expect(functionWords(filled) / filled.split(/\s+/).length).toBeGreaterThan(0.3);
    expect(filled).not.toContain(devTexts[0]!.text.split(/(?<=\.)\s/)[0]!);
    const stitched = stitchedSentences(others, 150, seededRandom(5));
    expect(stitched.split(/\s+/).length).toBeGreaterThanOrEqual(150);
  });

  it('an order-2 chain only emits token pairs it saw', () => {
    const chain = trainMarkov([devTexts[0]!.text], 2);
    const out = markovText(chain, 150, seededRandom(2)).split(/\s+/);
    const seen = new Set(devTexts[0]!.text.split(/\s+/).flatMap((w, i, all) => (i > 0 ? [`${all[i - 1]} ${w}`] : [])));
    const pairs = out.slice(1).map((w, i) => `${out[i]} ${w}`);
    // Pairs across generated sentence boundaries and cut sentences are the exception.
    expect(pairs.filter((p) => seen.has(p)).length / pairs.length).toBeGreaterThan(0.8);
  });
});

describe('generated decision tree', () => {
  it('evaluates like ml-cart', () => {
    const random = seededRandom(9);
    const x = Array.from({ length: 200 }, () => [random(), random(), random()]);
    const y = x.map(([a, b, c]) => (a! + 0.5 * b! > 0.8 || c! > 0.9 ? 1 : 0));
    const classifier = new DecisionTreeClassifier({ gainFunction: 'gini', maxDepth: 5, minNumSamples: 3 });
    classifier.train(x, y);
    const tree = treeFromMlCart((classifier.toJSON() as { root: Parameters<typeof treeFromMlCart>[0] }).root);
    const probe = Array.from({ length: 300 }, () => [random(), random(), random()]);
    const ours = probe.map((v) => (evaluateTree(tree, v, ['a', 'b', 'c']).score > 0.5 ? 1 : 0));
    expect(ours).toEqual(classifier.predict(probe));
  });

  it('scores a forest as the mean of its trees, the path from the first tree that voted generated', () => {
    const names = GENERATED_MODEL.features;
    for (const t of devTexts) {
      const { values } = generatedFeatures(t.text, 'eng');
      const verdicts = GENERATED_MODEL.trees.map((tree) => evaluateTree(tree, values, names));
      const mean = verdicts.reduce((a, v) => a + v.score, 0) / verdicts.length;
      expect(forestScore(GENERATED_MODEL.trees, values)).toBeCloseTo(mean, 12);
      const forest = evaluateForest(GENERATED_MODEL.trees, values, names);
      expect(forest.score).toBeCloseTo(mean, 12);
      expect(forest.path).toEqual((verdicts.find((v) => v.score >= 0.5) ?? verdicts[0]!).path);
    }
  });

  it('refuses a model made for other features', () => {
    expect(() => parseGeneratedModel({ features: ['x'], languages: ['eng'], trees: [{ positive: 0, samples: 1 }] })).toThrow(CascadeModelError);
  });

  it('the committed tree leaves the fixture texts alone and flags generated ones', () => {
    for (const t of devTexts) expect(generatedFlag(t.text, 'eng', options)).toBeNull();
    const random = seededRandom(11);
    let flagged = 0;
    let total = 0;
    for (const [i, t] of devTexts.entries()) {
      const others = devTexts.filter((_, j) => j !== i).map((o) => o.text);
      for (const name of GENERATOR_NAMES) {
        total++;
        const flag = generatedFlag(generateText(name, others, t.text.split(/\s+/).length, random), 'eng', options);
        if (flag !== null) {
          flagged++;
          expect(flag.path.length).toBeGreaterThan(0);
          expect(Object.keys(flag.features)).toEqual([...GENERATED_MODEL.features]);
        }
      }
    }
    // Generators fed only nine other texts copy long runs of them; the held-out figures are in the model file.
    expect(flagged / total).toBeGreaterThan(0.6);
  });

  it('leaves unflagged a text unlike anything trained on (features outside the ranges), and reports the trees\' votes', () => {
    const always = { positive: 1, samples: 10 };
    const base = { features: [...GENERATED_FEATURE_NAMES], languages: ['eng'], trees: [always, always, { positive: 0, samples: 10 }, always] };
    const text = devTexts[0]!.text;
    const { values } = generatedFeatures(text, 'eng');
    const wide = { low: values.map(() => -1e9), high: values.map(() => 1e9) };
    const flag = generatedFlag(text, 'eng', { ...options, minScore: 0.5 }, parseGeneratedModel({ ...base, ranges: wide }));
    expect(flag).toMatchObject({ kind: 'generated', score: 0.75, confidence: 0.75 });
    // Two features past their training range: a kind of text the trees never saw.
    const high = [...wide.high];
    high[0] = values[0]! - 1e-6;
    high[3] = values[3]! - 1e-6;
    expect(generatedFlag(text, 'eng', { ...options, minScore: 0.5 }, parseGeneratedModel({ ...base, ranges: { ...wide, high } }))).toBeNull();
    // One is not enough.
    high[3] = 1e9;
    expect(generatedFlag(text, 'eng', { ...options, minScore: 0.5 }, parseGeneratedModel({ ...base, ranges: { ...wide, high } }))).not.toBeNull();
    expect(() => parseGeneratedModel({ ...base, ranges: { low: [0], high: [1] } })).toThrow(CascadeModelError);
  });

  it('featureRanges widens the quantiles by a tenth of their span; outsideRange counts', () => {
    const rows = Array.from({ length: 101 }, (_, i) => [i, 2 * i]);
    const ranges = featureRanges(rows, 0.01);
    expect(ranges.low).toEqual([1 - 9.8, 2 - 19.6]);
    expect(ranges.high[0]).toBeCloseTo(99 + 9.8);
    expect(outsideRange(ranges, [50, 100])).toBe(0);
    expect(outsideRange(ranges, [-20, 1000])).toBe(2);
  });

  it('does not judge short texts or untrained languages', () => {
    expect(generatedFlag('Too short to judge.', 'eng', options)).toBeNull();
    expect(generatedFlag(devTexts[0]!.text, 'kor', options)).toBeNull();
  });
});

describe('feature window', () => {
  it('keeps short texts whole and cuts long ones after a sentence end', async () => {
    const { featureWindow, FEATURE_WINDOW } = await import('../../src/cascade/generated-features.js');
    expect(featureWindow('Short text.')).toBe('Short text.');
    const long = 'A sentence that goes on for a while. '.repeat(200);
    const cut = featureWindow(long);
    expect(cut.length).toBeLessThanOrEqual(FEATURE_WINDOW);
    expect(cut.endsWith('while.')).toBe(true);
    expect(featureWindow('x'.repeat(FEATURE_WINDOW * 2))).toHaveLength(FEATURE_WINDOW);
  });
});
