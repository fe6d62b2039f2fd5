import { describe, expect, it } from 'vitest';
import { pagesInView } from './collection';

describe('pagesInView', () => {
  it('asks for page 1 alone until the total is known', () => {
    expect(pagesInView(0, 20, undefined)).toEqual({ visible: [1], nearby: [] });
    expect(pagesInView(4000, 4020, undefined)).toEqual({ visible: [1], nearby: [] });
  });

  it('shows the pages in view (and page 1) and names the page above and the two below as nearby, never past the last', () => {
    expect(pagesInView(0, 30, 5000)).toEqual({ visible: [1], nearby: [2, 3] });
    expect(pagesInView(120, 160, 5000)).toEqual({ visible: [1, 3, 4], nearby: [2, 5, 6] });
    expect(pagesInView(4900, 4949, 5000)).toEqual({ visible: [1, 99], nearby: [98, 100] });
    // Scrolled to the end of 5,000 (100 pages of 50): the last page and page 1, the one before as nearby.
    expect(pagesInView(4970, 4999, 5000)).toEqual({ visible: [1, 100], nearby: [99] });
  });

  it('takes another page size', () => {
    expect(pagesInView(250, 260, 1000, 100)).toEqual({ visible: [1, 3], nearby: [2, 4, 5] });
  });
});
