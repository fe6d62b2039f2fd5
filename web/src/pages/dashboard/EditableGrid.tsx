import type { ReactNode } from 'react';
import { Responsive } from 'react-grid-layout/legacy';
import 'react-grid-layout/css/styles.css';
import './dashboard-grid.css';
import {
  GRID_BREAKPOINTS,
  GRID_COLS,
  GRID_MARGIN,
  GRID_ROW_HEIGHT,
  type DashboardLayoutItem,
  type GridBreakpoint,
  type GridLayouts,
} from '@/components/dashboard/layout';

interface EditableGridProps {
  width: number;
  breakpoint: GridBreakpoint;
  layouts: GridLayouts;
  arranging: boolean;
  onLayoutChange: (layout: unknown, all: Partial<Record<string, ReadonlyArray<Partial<DashboardLayoutItem>>>>) => void;
  children: ReactNode;
}

/** The dashboard grid while its layout is edited: react-grid-layout, loaded only for edit mode. */
export default function EditableGrid({ width, breakpoint, layouts, arranging, onLayoutChange, children }: EditableGridProps) {
  return (
    <Responsive
      width={width}
      breakpoint={breakpoint}
      breakpoints={GRID_BREAKPOINTS}
      cols={GRID_COLS}
      layouts={layouts}
      rowHeight={GRID_ROW_HEIGHT}
      margin={GRID_MARGIN}
      containerPadding={[0, 0]}
      isDraggable={arranging}
      isResizable={arranging}
      draggableHandle=".dashboard-drag-handle"
      onLayoutChange={onLayoutChange}
    >
      {children}
    </Responsive>
  );
}
