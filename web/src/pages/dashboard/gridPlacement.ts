import { bottom, calcGridItemPosition, cloneLayout, correctBounds, verticalCompactor } from 'react-grid-layout/core';
import { GRID_MARGIN, GRID_ROW_HEIGHT, type DashboardLayoutItem } from '@/components/dashboard/layout';

export interface WidgetPlacement {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where the dashboard grid draws each widget of `layout` in a grid `width` px wide with `cols` columns, and how tall
 * the grid is: the arithmetic react-grid-layout's grid does (its layout helpers, without its components), so the page
 * shows the widgets where the grid would, while the grid itself loads only for edit mode.
 */
export function placeWidgets(layout: DashboardLayoutItem[], ids: string[], cols: number, width: number) {
  const shown = cloneLayout(layout.filter((item) => ids.includes(item.i)));
  const compacted = verticalCompactor.compact(correctBounds(shown, { cols }), cols);
  const params = {
    cols,
    containerWidth: width,
    containerPadding: [0, 0] as const,
    margin: GRID_MARGIN,
    maxRows: Infinity,
    rowHeight: GRID_ROW_HEIGHT,
  };
  const placements: WidgetPlacement[] = compacted.map((item) => ({
    id: item.i,
    ...calcGridItemPosition(params, item.x, item.y, item.w, item.h),
  }));
  const rows = bottom(compacted);
  const height = rows * GRID_ROW_HEIGHT + (rows - 1) * GRID_MARGIN[1];
  return { placements, height };
}
