import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_LAYOUTS, gridLayouts } from '@/components/dashboard/layout';
import { placeWidgets } from './gridPlacement';

const IDS = [
  'queueProcessor',
  'unrecognizedFiles',
  'collectionBreakdown',
  'recentlyImported',
  'collectionTypeBreakdown',
  'importFolders',
  'continueWatching',
  'shokoNews',
  'nextUp',
  'upcomingAnime',
  'recommendedAnime',
];

const boxes = (result: ReturnType<typeof placeWidgets>) =>
  Object.fromEntries(result.placements.map(({ id, left, top, width, height }) => [id, [left, top, width, height]]));

// The boxes are what react-grid-layout's grid drew for the default layout in Chromium (1,600 and 900 px windows).
describe('placeWidgets', () => {
  it('places the default layout on a wide screen where react-grid-layout does', () => {
    const result = placeWidgets(gridLayouts(DEFAULT_DASHBOARD_LAYOUTS, IDS).lg, IDS, 12, 1552);
    expect(boxes(result)).toEqual({
      queueProcessor: [0, 0, 501, 408],
      unrecognizedFiles: [525, 0, 502, 408],
      collectionBreakdown: [1051, 0, 501, 408],
      recentlyImported: [0, 432, 1027, 384],
      collectionTypeBreakdown: [1051, 432, 501, 384],
      importFolders: [0, 840, 501, 384],
      continueWatching: [525, 840, 1027, 384],
      shokoNews: [0, 1248, 501, 384],
      nextUp: [525, 1248, 1027, 384],
      upcomingAnime: [0, 1656, 1552, 384],
      recommendedAnime: [0, 2064, 1552, 384],
    });
    expect(result.height).toBe(2448);
  });

  it('places the medium layout and closes the gap a hidden widget leaves', () => {
    const medium = placeWidgets(gridLayouts(DEFAULT_DASHBOARD_LAYOUTS, IDS).md, IDS, 10, 852);
    expect(boxes(medium)).toMatchObject({
      queueProcessor: [0, 0, 414, 408],
      unrecognizedFiles: [438, 0, 414, 408],
      collectionBreakdown: [0, 432, 414, 408],
      collectionTypeBreakdown: [438, 432, 414, 408],
      recentlyImported: [0, 864, 852, 384],
      recommendedAnime: [0, 2496, 852, 384],
    });
    const without = IDS.filter((id) => id !== 'unrecognizedFiles');
    const closed = placeWidgets(gridLayouts(DEFAULT_DASHBOARD_LAYOUTS, without).md, without, 10, 852);
    expect(boxes(closed).unrecognizedFiles).toBeUndefined();
    expect(boxes(closed).collectionTypeBreakdown?.[1]).toBe(0);
  });
});
