import { describe, expect, it } from 'vitest';
import {
  breakpointFor,
  DEFAULT_DASHBOARD_LAYOUTS,
  GRID_COLS,
  closeGaps,
  gridLayouts,
  mergeLayouts,
  nudgeWidget,
  parseDashboardLayouts,
  SAVED_BREAKPOINTS,
  type DashboardLayoutItem,
  type DashboardLayouts,
} from './layout';
import { DASHBOARD_WIDGETS } from '@/pages/dashboard/DashboardPage';

const ALL = DASHBOARD_WIDGETS.map((widget) => widget.id);
const find = (items: DashboardLayoutItem[], id: string) => items.find((item) => item.i === id)!;
const overlaps = (a: DashboardLayoutItem, b: DashboardLayoutItem) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('default dashboard layout', () => {
  it('places every widget once per breakpoint, inside the columns, without overlaps', () => {
    for (const breakpoint of SAVED_BREAKPOINTS) {
      const items = DEFAULT_DASHBOARD_LAYOUTS[breakpoint];
      expect(items.map((item) => item.i).sort()).toEqual([...ALL].sort());
      for (const item of items) expect(item.x + item.w).toBeLessThanOrEqual(GRID_COLS[breakpoint]);
      for (const [index, item] of items.entries())
        for (const other of items.slice(index + 1)) expect(overlaps(item, other), `${item.i} / ${other.i}`).toBe(false);
    }
  });

  it('puts three small panels in the first wide row and two on narrower screens', () => {
    const firstRow = (items: DashboardLayoutItem[]) => items.filter((item) => item.y === 0).map((item) => item.i);
    expect(firstRow(DEFAULT_DASHBOARD_LAYOUTS.lg)).toEqual(['queueProcessor', 'unrecognizedFiles', 'collectionBreakdown']);
    expect(firstRow(DEFAULT_DASHBOARD_LAYOUTS.md)).toEqual(['queueProcessor', 'unrecognizedFiles']);
    expect(firstRow(DEFAULT_DASHBOARD_LAYOUTS.sm)).toEqual(['queueProcessor', 'unrecognizedFiles']);
    expect(find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'upcomingAnime').w).toBe(12);
  });
});

describe('stored dashboard layout', () => {
  it('reads Shoko’s shape and falls back to the defaults for what is missing or broken', () => {
    expect(parseDashboardLayouts(undefined)).toBeNull();
    expect(parseDashboardLayouts({ order: ['nextUp', 'queueProcessor'] })).toBeNull();
    expect(parseDashboardLayouts({ lg: 'nope', md: [{ i: 'x' }] })).toBeNull();
    // Shoko stores lg and md only, with fractional heights; sm then comes from the defaults.
    const parsed = parseDashboardLayouts({
      lg: [
        { i: 'queueProcessor', x: 0, y: 0, w: 6, h: 19.75, minW: 2, minH: 2, moved: false, static: false },
        { i: 'nextUp', x: 11, y: 3, w: 30, h: 5 },
        { i: 'bad', x: -1, y: 0, w: 1, h: 1 },
        { i: 'queueProcessor', x: 6, y: 0, w: 6, h: 4 },
      ],
      md: [{ i: 'shokoNews', x: 0, y: 0, w: 5, h: 21.8 }],
    });
    expect(parsed?.lg).toEqual([
      { i: 'queueProcessor', x: 0, y: 0, w: 6, h: 20, minW: 2, minH: 7, moved: false, static: false },
      { i: 'nextUp', x: 0, y: 3, w: 12, h: 5, minW: 2, minH: 7, moved: false, static: false },
    ]);
    expect(parsed?.md).toEqual([{ i: 'shokoNews', x: 0, y: 0, w: 5, h: 22, minW: 2, minH: 7, moved: false, static: false }]);
    expect(parsed?.sm).toEqual(DEFAULT_DASHBOARD_LAYOUTS.sm);
  });
});

describe('grid layouts', () => {
  it('picks the breakpoint from the grid width: lg from 1024, md from 768, sm from 640, one column below', () => {
    expect([1400, 1024, 1023, 768, 767, 640, 639, 366].map(breakpointFor)).toEqual(['lg', 'lg', 'md', 'md', 'sm', 'sm', 'xs', 'xs']);
  });

  it('leaves hidden widgets out and puts widgets the saved layout lacks below the others', () => {
    const saved = { ...DEFAULT_DASHBOARD_LAYOUTS, lg: [{ ...find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'nextUp'), y: 0 }] };
    const grid = gridLayouts(saved, ['nextUp', 'shokoNews']);
    expect(grid.lg.map((item) => [item.i, item.y])).toEqual([
      ['nextUp', 0],
      ['shokoNews', find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'nextUp').h + find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'shokoNews').y],
    ]);
    expect(grid.md.map((item) => item.i).sort()).toEqual(['nextUp', 'shokoNews']);
  });

  it('closes the hole a hidden widget leaves: the widgets after it move into it where they fit', () => {
    const visible = DEFAULT_DASHBOARD_LAYOUTS.lg.map((item) => item.i).filter((id) => id !== 'collectionTypeBreakdown');
    const closed = closeGaps(DEFAULT_DASHBOARD_LAYOUTS, visible);
    const lg = gridLayouts(closed, visible).lg;
    const recentlyImported = find(lg, 'recentlyImported');
    // Import Folders (4 wide) takes Media Type's place beside Recently Imported (8 wide) on a 12-column row.
    expect(find(lg, 'importFolders')).toMatchObject({ x: recentlyImported.w, y: recentlyImported.y });
    for (const a of lg)
      for (const b of lg) if (a !== b) expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h).toBe(false);
    // The hidden widget waits below the others.
    expect(find(closed.lg, 'collectionTypeBreakdown').y).toBeGreaterThanOrEqual(Math.max(...lg.map((item) => item.y + item.h)));
  });

  it('keeps the saved places when every widget is shown, and holes a user left on purpose', () => {
    const ids = DEFAULT_DASHBOARD_LAYOUTS.lg.map((item) => item.i);
    expect(closeGaps(DEFAULT_DASHBOARD_LAYOUTS, ids)).toEqual(DEFAULT_DASHBOARD_LAYOUTS);
    // Queue moved to the right, leaving the first column empty; a hidden widget elsewhere does not fill that.
    const arranged = {
      ...DEFAULT_DASHBOARD_LAYOUTS,
      lg: [
        { ...find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'unrecognizedFiles'), x: 4, y: 0 },
        { ...find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'queueProcessor'), x: 8, y: 0 },
        { ...find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'shokoNews'), x: 0, y: 40 },
      ],
    };
    const closed = closeGaps(arranged, ['unrecognizedFiles', 'queueProcessor']);
    expect(closed.lg.slice(0, 2)).toEqual(arranged.lg.slice(0, 2));
  });

  it('stacks the widgets in one column on phones, in the small-screen reading order', () => {
    const saved = {
      ...DEFAULT_DASHBOARD_LAYOUTS,
      sm: [
        { ...find(DEFAULT_DASHBOARD_LAYOUTS.sm, 'nextUp'), y: 0 },
        { ...find(DEFAULT_DASHBOARD_LAYOUTS.sm, 'queueProcessor'), y: 16 },
      ],
    };
    const { xs } = gridLayouts(saved, ['queueProcessor', 'nextUp']);
    const below = find(DEFAULT_DASHBOARD_LAYOUTS.sm, 'nextUp').h;
    expect(xs.map(({ i, x, y, w }) => ({ i, x, y, w }))).toEqual([
      { i: 'nextUp', x: 0, y: 0, w: 1 },
      { i: 'queueProcessor', x: 0, y: below, w: 1 },
    ]);
  });

  it('takes what the grid reports after a drag and keeps the saved places of hidden widgets', () => {
    const moved = [{ ...find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'queueProcessor'), x: 8, y: 40, moved: true }];
    const merged = mergeLayouts(DEFAULT_DASHBOARD_LAYOUTS, { lg: moved, xs: [{ i: 'queueProcessor', x: 0, y: 0, w: 1, h: 18 }] });
    expect(find(merged.lg, 'queueProcessor')).toMatchObject({ x: 8, y: 40, moved: false });
    expect(find(merged.lg, 'nextUp')).toEqual(find(DEFAULT_DASHBOARD_LAYOUTS.lg, 'nextUp'));
    expect(merged.md).toBe(DEFAULT_DASHBOARD_LAYOUTS.md);
    // Nothing changed: the very same object, so the grid does not re-render for nothing.
    expect(mergeLayouts(DEFAULT_DASHBOARD_LAYOUTS, { lg: DEFAULT_DASHBOARD_LAYOUTS.lg })).toBe(DEFAULT_DASHBOARD_LAYOUTS);
  });
});

describe('keyboard arranging', () => {
  it('moves and resizes one widget inside the grid and above its minimum size', () => {
    const queue = (layouts: DashboardLayouts) => layouts.lg.find((entry) => entry.i === 'queueProcessor')!;
    const start = queue(DEFAULT_DASHBOARD_LAYOUTS);
    expect(queue(nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dx: 2, dy: 4 }))).toMatchObject({
      x: start.x + 2,
      y: start.y + 4,
      w: start.w,
      moved: true,
    });
    // Never off the left edge or past the right one.
    expect(queue(nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dx: -5 })).x).toBe(0);
    expect(queue(nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dx: 50 })).x).toBe(12 - start.w);
    // Resizing stops at the minimum and at the grid's width.
    expect(queue(nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dw: -50, dh: -50 }))).toMatchObject({
      w: start.minW,
      h: start.minH,
    });
    expect(queue(nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dw: 50 })).w).toBe(12);
    // Other widgets and other breakpoints are left as they were.
    const moved = nudgeWidget(DEFAULT_DASHBOARD_LAYOUTS, 'lg', 'queueProcessor', { dx: 1 });
    expect(moved.md).toBe(DEFAULT_DASHBOARD_LAYOUTS.md);
    expect(moved.lg.filter((entry) => entry.i !== 'queueProcessor')).toEqual(
      DEFAULT_DASHBOARD_LAYOUTS.lg.filter((entry) => entry.i !== 'queueProcessor'),
    );
  });
});
