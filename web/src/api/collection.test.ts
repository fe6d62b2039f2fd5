import { describe, expect, it } from 'vitest';
import { pagesInView } from './collection';

describe('pagesInView', () => {
  it('asks for page 1 alone until the total is known', () => {
    expect(pagesInView(0, 20, undefined)).toEqual([1]);
    expect(pagesInView(4000, 4020, undefined)).toEqual([1]);
  });

  it('asks for the first page alone while the view is well inside it', () => {
    expect(pagesInView(0, 30, 5000)).toEqual([1]);
  });

  it('asks for the pages in view and for the page beyond an edge the view comes near, never past the last', () => {
    expect(pagesInView(0, 40, 5000)).toEqual([1, 2]);
    expect(pagesInView(120, 160, 5000)).toEqual([1, 3, 4]);
    expect(pagesInView(105, 160, 5000)).toEqual([1, 2, 3, 4]);
    // Scrolled to the end of 5,000 (100 pages of 50): the last page and page 1, nothing in between.
    expect(pagesInView(4970, 4999, 5000)).toEqual([1, 100]);
    expect(pagesInView(4940, 4999, 5000)).toEqual([1, 99, 100]);
  });

  it('takes another page size', () => {
    expect(pagesInView(250, 260, 1000, 100)).toEqual([1, 3]);
  });
});
