/**
 * The dashboard grid (react-grid-layout) and its stored shape, `WebUI_Settings.layout.dashboard = { lg, md, sm }`:
 * one list of `{ i, x, y, w, h, minW, minH, moved, static }` per breakpoint, keyed by the widget ids Shoko's own console
 * uses, so a layout saved by either console reads the same in the other. Row units match too: the grid has a row height
 * of 0 and a 24 px margin, so one unit of `y`/`h` is 24 px and a widget `h` units tall is 24 × (h − 1) px.
 *
 * Kept free of the library itself (types only are declared here) so the settings code that reads this file stays out
 * of the dashboard chunk.
 */

export type GridBreakpoint = 'lg' | 'md' | 'sm' | 'xs';
/** The breakpoints a layout is stored for; below `sm` the widgets stack in one column and cannot be arranged. */
export type SavedBreakpoint = Exclude<GridBreakpoint, 'xs'>;
export const SAVED_BREAKPOINTS: SavedBreakpoint[] = ['lg', 'md', 'sm'];

export const GRID_BREAKPOINTS: Record<GridBreakpoint, number> = { lg: 1024, md: 768, sm: 640, xs: 0 };
export const GRID_COLS: Record<GridBreakpoint, number> = { lg: 12, md: 10, sm: 6, xs: 1 };
export const GRID_MARGIN: [number, number] = [24, 24];

/** The breakpoint for a grid `width` px wide: the widest one it reaches. */
export function breakpointFor(width: number): GridBreakpoint {
  return (['lg', 'md', 'sm'] as const).find((breakpoint) => width >= GRID_BREAKPOINTS[breakpoint]) ?? 'xs';
}
export const GRID_ROW_HEIGHT = 0;

export interface DashboardLayoutItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW: number;
  minH: number;
  moved: boolean;
  static: boolean;
}

export type DashboardLayouts = Record<SavedBreakpoint, DashboardLayoutItem[]>;
export type GridLayouts = Record<GridBreakpoint, DashboardLayoutItem[]>;

/** Smallest size a widget can be resized to: two columns, 144 px. */
const MIN_W = 2;
const MIN_H = 7;
/** Default heights in row units: the small panels (queue, stats…) 408 px, the lists of cards 384 px. */
const PANEL = 18;
const LIST = 17;

type Row = Array<[id: string, w: number, h: number]>;

/** Widgets laid out row by row, each row starting below the tallest widget of the row before it. */
function rows(spec: Row[]): DashboardLayoutItem[] {
  const items: DashboardLayoutItem[] = [];
  let y = 0;
  for (const row of spec) {
    let x = 0;
    for (const [i, w, h] of row) {
      items.push(item({ i, x, y, w, h }));
      x += w;
    }
    y += Math.max(...row.map(([, , h]) => h));
  }
  return items;
}

function item(place: Pick<DashboardLayoutItem, 'i' | 'x' | 'y' | 'w' | 'h'>): DashboardLayoutItem {
  return { ...place, minW: MIN_W, minH: MIN_H, moved: false, static: false };
}

/** The arrangement Reset to Default restores: three small panels a row on wide screens, two on narrower ones. */
export const DEFAULT_DASHBOARD_LAYOUTS: DashboardLayouts = {
  lg: rows([
    [
      ['queueProcessor', 4, PANEL],
      ['unrecognizedFiles', 4, PANEL],
      ['collectionBreakdown', 4, PANEL],
    ],
    [
      ['recentlyImported', 8, LIST],
      ['collectionTypeBreakdown', 4, LIST],
    ],
    [
      ['importFolders', 4, LIST],
      ['continueWatching', 8, LIST],
    ],
    [
      ['shokoNews', 4, LIST],
      ['nextUp', 8, LIST],
    ],
    [['upcomingAnime', 12, LIST]],
    [['recommendedAnime', 12, LIST]],
  ]),
  md: rows([
    [
      ['queueProcessor', 5, PANEL],
      ['unrecognizedFiles', 5, PANEL],
    ],
    [
      ['collectionBreakdown', 5, PANEL],
      ['collectionTypeBreakdown', 5, PANEL],
    ],
    [['recentlyImported', 10, LIST]],
    [
      ['importFolders', 5, LIST],
      ['shokoNews', 5, LIST],
    ],
    [
      ['continueWatching', 5, LIST],
      ['nextUp', 5, LIST],
    ],
    [['upcomingAnime', 10, LIST]],
    [['recommendedAnime', 10, LIST]],
  ]),
  sm: rows([
    [
      ['queueProcessor', 3, PANEL],
      ['unrecognizedFiles', 3, PANEL],
    ],
    [
      ['collectionBreakdown', 3, PANEL],
      ['collectionTypeBreakdown', 3, PANEL],
    ],
    [['recentlyImported', 6, LIST]],
    [
      ['importFolders', 3, LIST],
      ['shokoNews', 3, LIST],
    ],
    [['continueWatching', 6, LIST]],
    [['nextUp', 6, LIST]],
    [['upcomingAnime', 6, LIST]],
    [['recommendedAnime', 6, LIST]],
  ]),
};

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** One stored item made safe for `cols` columns, or null when it is not a layout item at all. */
function parseItem(value: unknown, cols: number): DashboardLayoutItem | null {
  if (!value || typeof value !== 'object') return null;
  const { i, x, y, w, h } = value as Record<string, unknown>;
  if (typeof i !== 'string' || !i || !isCount(x) || !isCount(y) || !isCount(w) || !isCount(h) || w < 1 || h < 1) return null;
  const width = Math.min(cols, Math.max(1, Math.round(w)));
  return item({ i, x: Math.min(Math.round(x), cols - width), y: Math.round(y), w: width, h: Math.max(1, Math.round(h)) });
}

/**
 * The stored `layout.dashboard` value read leniently: each breakpoint's list of items, the defaults for a breakpoint
 * it lacks; null when there is no usable layout at all (nothing stored, the old `{ order: [...] }` form, junk).
 */
export function parseDashboardLayouts(stored: unknown): DashboardLayouts | null {
  if (!stored || typeof stored !== 'object') return null;
  let found = false;
  const result = { ...DEFAULT_DASHBOARD_LAYOUTS };
  for (const breakpoint of SAVED_BREAKPOINTS) {
    const list = (stored as Record<string, unknown>)[breakpoint];
    if (!Array.isArray(list)) continue;
    const items = list.map((entry) => parseItem(entry, GRID_COLS[breakpoint])).filter((entry): entry is DashboardLayoutItem => !!entry);
    const unique = items.filter((entry, index) => items.findIndex((other) => other.i === entry.i) === index);
    if (!unique.length) continue;
    result[breakpoint] = unique;
    found = true;
  }
  return found ? result : null;
}

const bottom = (items: DashboardLayoutItem[]) => Math.max(0, ...items.map((entry) => entry.y + entry.h));
const readingOrder = (a: DashboardLayoutItem, b: DashboardLayoutItem) => a.y - b.y || a.x - b.x;

const cellsOf = (item: Pick<DashboardLayoutItem, 'x' | 'y' | 'w' | 'h'>) => {
  const cells: string[] = [];
  for (let y = item.y; y < item.y + item.h; y++) for (let x = item.x; x < item.x + item.w; x++) cells.push(`${x},${y}`);
  return cells;
};

/**
 * `saved` with the holes that hidden widgets leave closed up. The grid's own compaction only moves widgets up, so a
 * hidden widget beside another would leave a hole; here each visible widget, in reading order, moves to the first
 * earlier place that lies wholly in such a hole (or in room another widget just left, or its own). Holes a user left on
 * purpose are kept. Hidden widgets go below the others, so a layout saved from this keeps its arrangement next time.
 */
export function closeGaps(saved: DashboardLayouts, ids: string[]): DashboardLayouts {
  const result = { ...saved };
  for (const breakpoint of SAVED_BREAKPOINTS) {
    const hidden = saved[breakpoint].filter((entry) => !ids.includes(entry.i));
    if (!hidden.length) continue;
    const visible = saved[breakpoint].filter((entry) => ids.includes(entry.i)).sort(readingOrder);
    const cols = GRID_COLS[breakpoint];
    const taken = new Map<string, string>();
    for (const entry of visible) for (const cell of cellsOf(entry)) taken.set(cell, entry.i);
    const freed = new Set(hidden.flatMap(cellsOf).filter((cell) => !taken.has(cell)));
    const placed = visible.map((entry) => {
      const own = new Set(cellsOf(entry));
      const fits = (x: number, y: number) =>
        cellsOf({ x, y, w: entry.w, h: entry.h }).every((cell) => own.has(cell) || (freed.has(cell) && !taken.has(cell)));
      for (let y = 0; y <= entry.y; y++) {
        for (let x = 0; x + entry.w <= cols && (y < entry.y || x < entry.x); x++) {
          if (!fits(x, y)) continue;
          const moved = { ...entry, x, y };
          for (const cell of own) {
            taken.delete(cell);
            freed.add(cell);
          }
          for (const cell of cellsOf(moved)) {
            taken.set(cell, entry.i);
            freed.delete(cell);
          }
          return moved;
        }
      }
      return entry;
    });
    const below = bottom(placed);
    result[breakpoint] = [...placed, ...hidden.map((entry) => ({ ...entry, y: below + entry.y }))];
  }
  return result;
}

/**
 * What the grid gets for the visible widgets `ids`: the saved places, a widget the layout does not know (new, or only
 * in Shoko's list) from the defaults below the others, and for the one-column phone width the small-screen order.
 */
export function gridLayouts(saved: DashboardLayouts, ids: string[]): GridLayouts {
  const result = {} as GridLayouts;
  for (const breakpoint of SAVED_BREAKPOINTS) {
    const known = saved[breakpoint].filter((entry) => ids.includes(entry.i));
    const below = bottom(known);
    const added = ids
      .filter((id) => !known.some((entry) => entry.i === id))
      .map(
        (id) =>
          DEFAULT_DASHBOARD_LAYOUTS[breakpoint].find((entry) => entry.i === id) ??
          item({ i: id, x: 0, y: 0, w: GRID_COLS[breakpoint], h: LIST }),
      )
      .map((entry) => ({ ...entry, y: below + entry.y }));
    result[breakpoint] = [...known, ...added];
  }
  let y = 0;
  result.xs = [...result.sm].sort(readingOrder).map((entry) => {
    const stacked = { ...entry, x: 0, y, w: 1, minW: 1 };
    y += entry.h;
    return stacked;
  });
  return result;
}

/**
 * `base` with the breakpoints the grid reported replaced by what the grid shows now. Widgets the grid does not show
 * (hidden ones) keep their saved places, so showing them again brings them back where they were.
 */
export function mergeLayouts(
  base: DashboardLayouts,
  grid: Partial<Record<string, ReadonlyArray<Partial<DashboardLayoutItem>>>>,
): DashboardLayouts {
  const result = { ...base };
  for (const breakpoint of SAVED_BREAKPOINTS) {
    const shown = (grid[breakpoint] ?? [])
      .map((entry) => parseItem(entry, GRID_COLS[breakpoint]))
      .filter((entry): entry is DashboardLayoutItem => !!entry);
    if (!shown.length) continue;
    result[breakpoint] = [...shown, ...base[breakpoint].filter((entry) => !shown.some((other) => other.i === entry.i))];
  }
  return sameLayouts(result, base) ? base : result;
}

export function sameLayouts(a: DashboardLayouts, b: DashboardLayouts): boolean {
  const key = (layouts: DashboardLayouts) =>
    JSON.stringify(SAVED_BREAKPOINTS.map((breakpoint) => [...layouts[breakpoint]].sort((x, y) => x.i.localeCompare(y.i))));
  return key(a) === key(b);
}

/**
 * Keyboard arranging: the widget `id` of one breakpoint moved by `dx` columns / `dy` rows or resized by `dw` / `dh`,
 * kept inside the grid and above its minimum size. The grid settles overlaps itself, as after a drag.
 */
export function nudgeWidget(
  layouts: DashboardLayouts,
  breakpoint: SavedBreakpoint,
  id: string,
  change: { dx?: number; dy?: number; dw?: number; dh?: number },
): DashboardLayouts {
  const cols = GRID_COLS[breakpoint];
  const list = layouts[breakpoint].map((entry) => {
    if (entry.i !== id) return entry;
    const w = Math.min(cols, Math.max(entry.minW, entry.w + (change.dw ?? 0)));
    const h = Math.max(entry.minH, entry.h + (change.dh ?? 0));
    const x = Math.min(cols - w, Math.max(0, entry.x + (change.dx ?? 0)));
    const y = Math.max(0, entry.y + (change.dy ?? 0));
    return { ...entry, x, y, w, h, moved: true };
  });
  return { ...layouts, [breakpoint]: list };
}
