/** src/cascade/synonymised-flag.ts compareWithSynonyms: a page's stems against a source's, through synonym classes. */
import { describe, expect, it } from 'vitest';
import { termHash, type CascadeRecord } from '../../src/cascade/cascade-record.js';
import { compareWithSynonyms } from '../../src/cascade/synonymised-flag.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';

const synonyms = loadSynonymDictionary({
  builtIn: false,
  userLanguage: 'eng',
  userClasses: [['gizmo', 'widget', 'gadget'], ['quick', 'fast'], ['widget', 'doodad'], ['sofa', 'couch', 'settee']],
});

/** A record of distinct stems; its terms are their hashes, as a record's always are. */
function record(stems: string[]): CascadeRecord {
  const terms = Uint32Array.from(stems, termHash).sort();
  return { language: 'eng', words: stems.length, stems, wordSketch: new Uint32Array(0), shingles: new Uint32Array(0), terms, tagSketch: null, paragraphs: [] };
}

describe('compareWithSynonyms', () => {
  it('counts own stems and synonyms, an example per synonym: the first stem of its first class whose term the source holds', () => {
    // "gadget" is in class 0 (gizmo, widget, gadget), of which the source holds gizmo and widget:
    // gizmo, the class's first, stands for it; "doodad" in class 2 only (widget, doodad).
    const source = record(['red', 'widget', 'gizmo', 'quick', 'couch']);
    const page = record(['red', 'gadget', 'doodad', 'fast', 'sette', 'blue']);
    const cmp = compareWithSynonyms(page, source, synonyms);
    expect(cmp).not.toBeNull();
    expect(cmp!.examples).toEqual([['gizmo', 'gadget'], ['widget', 'doodad'], ['quick', 'fast'], ['couch', 'sette']]);
    expect(cmp!.substituted).toBeCloseTo(4 / 6);
    expect(cmp!.explained).toBeCloseTo(5 / 6);
  });

  it('gives up (null) once too many stems are neither the source\'s nor synonyms of them', () => {
    const source = record(['red', 'widget']);
    const page = record(['red', 'gadget', 'blue', 'green', 'fast']);
    expect(compareWithSynonyms(page, source, synonyms, 0.9)).toBeNull();
    expect(compareWithSynonyms(page, source, synonyms, 0.4)!.explained).toBeCloseTo(2 / 5);
  });

  it('counts the source\'s own stems as explained also when they have no synonym class, up to the bound', () => {
    // 18 of 20 page stems are the source's (none in a class), 1 a synonym, 1 neither: 19/20 explained.
    const shared = Array.from({ length: 18 }, (_, i) => `word${i}`);
    const source = record([...shared, 'widget']);
    const page = record([...shared.slice().reverse(), 'gadget', 'blue']);
    expect(compareWithSynonyms(page, source, synonyms, 0.95)!.explained).toBeCloseTo(19 / 20);
    expect(compareWithSynonyms(page, record(shared.slice(1)), synonyms, 0.95)).toBeNull();
  });
});
