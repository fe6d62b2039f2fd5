import type { CSSProperties, ReactNode } from 'react';
import { GRID_COLS, type GridBreakpoint, type GridLayouts } from '@/components/dashboard/layout';
import { placeWidgets } from './gridPlacement';

interface StaticGridProps {
  width: number;
  breakpoint: GridBreakpoint;
  layouts: GridLayouts;
  ids: string[];
  /** A widget's element, given the class and style that place it. */
  renderWidget: (id: string, placement: { className: string; style: CSSProperties }) => ReactNode;
}

/**
 * The dashboard grid outside edit mode: the widgets where react-grid-layout would put them, with the same elements and
 * classes, without loading the grid library (about 70 kB of script) on every visit of the dashboard.
 */
export function StaticGrid({ width, breakpoint, layouts, ids, renderWidget }: StaticGridProps) {
  const { placements, height } = placeWidgets(layouts[breakpoint], ids, GRID_COLS[breakpoint], width);
  // In the widgets' order, as the grid draws them (the tab order follows it).
  const shown = ids.flatMap((id) => placements.filter((placement) => placement.id === id));
  return (
    <div className="react-grid-layout" style={{ position: 'relative', height }}>
      {shown.map(({ id, left, top, width: itemWidth, height: itemHeight }) =>
        renderWidget(id, {
          className: 'react-grid-item cssTransforms',
          style: { position: 'absolute', transform: `translate(${left}px,${top}px)`, width: itemWidth, height: itemHeight },
        }),
      )}
    </div>
  );
}
