import { describe, expect, it } from 'vitest';
import { skippablePart, skipTarget } from './chapters';

describe('opening and ending chapters', () => {
  it('knows the names release groups give them', () => {
    for (const title of ['Opening', 'OP', 'OP2', 'op 1', 'Intro', 'Opening Credits', 'Opening Song'])
      expect(skippablePart(title)).toBe('Opening');
    for (const title of ['Ending', 'ED', 'ED1', 'Outro', 'End Credits', 'Credits']) expect(skippablePart(title)).toBe('Ending');
    for (const title of ['Prologue', 'Part A', 'Preview', 'Opportunity', 'Education', null]) expect(skippablePart(title)).toBeNull();
  });

  it('offers a skip to the end of the part being played', () => {
    const chapters = [
      { Title: 'Prologue', Start: 0, End: 60 },
      { Title: 'OP', Start: 60, End: 150 },
      { Title: 'Part A', Start: 150, End: 700 },
      { Title: 'ED', Start: 1300, End: 1390 },
    ];
    expect(skipTarget(chapters, 30)).toBeNull();
    expect(skipTarget(chapters, 61)).toEqual({ part: 'Opening', end: 150 });
    expect(skipTarget(chapters, 149.5)).toBeNull();
    expect(skipTarget(chapters, 1310)).toEqual({ part: 'Ending', end: 1390 });
  });
});
