import { describe, expect, it } from 'vitest';
import { bestTitleSimilarity, normaliseTitle, titleSimilarity } from './title-similarity.js';

describe('title normalisation', () => {
  it('folds case, accents, full-width forms, ampersands and punctuation', () => {
    expect(normaliseTitle('  Café  Déjà-Vu!! ')).toBe('cafe deja vu');
    expect(normaliseTitle('ＡＢＣ　２')).toBe('abc 2');
    expect(normaliseTitle('Salt & Lanterns')).toBe('salt and lanterns');
    expect(normaliseTitle('潮線の、ランタン')).toBe('潮線の ランタン');
  });
});

describe('Sørensen–Dice title similarity', () => {
  it('is 1 for titles equal after normalisation, also when only spacing differs', () => {
    expect(titleSimilarity("The Lamp-Keeper's Apprentice", 'the lamp keepers apprentice')).toBe(1);
    expect(titleSimilarity('Sky Ward', 'Skyward')).toBe(1);
  });

  it('computes 2·shared / total bigrams with multiset counting', () => {
    // "night" → ni ig gh ht, "nacht" → na ac ch ht: one shared of eight.
    expect(titleSimilarity('night', 'nacht')).toBeCloseTo(0.25);
    // "aaaa" has bigram aa three times, "aa" once: only one may be shared.
    expect(titleSimilarity('aaaa', 'aa')).toBeCloseTo(0.5);
  });

  it('scores near-identical titles high and unrelated ones low', () => {
    expect(titleSimilarity('Welcome to the Salt Station', 'Welcome to Salt Station')).toBeGreaterThan(0.8);
    expect(titleSimilarity('A Map Drawn in Salt', 'Rewound')).toBeLessThan(0.2);
  });

  it('handles empty and one-character titles', () => {
    expect(titleSimilarity('', 'x')).toBe(0);
    expect(titleSimilarity('!!', '??')).toBe(0);
    expect(titleSimilarity('海', '海')).toBe(1);
    expect(titleSimilarity('海', '空')).toBe(0);
  });

  it('takes the best pair across title lists', () => {
    expect(bestTitleSimilarity(['Shio no Lantern', 'Tide Lanterns'], ['Tide Lanterns!'])).toBe(1);
    expect(bestTitleSimilarity([], ['anything'])).toBe(0);
  });
});
