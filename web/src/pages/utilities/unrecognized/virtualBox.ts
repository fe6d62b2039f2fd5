import { elementScroll, type Virtualizer } from '@tanstack/react-virtual';

/*
 * How a file table's virtualizer meets its scroll box. The library's defaults, on attaching to the box, measure it
 * (getBoundingClientRect) and write its scroll offset (scrollTo 0): each forces a layout of the page inside React's
 * commit, before the rows exist (20 ms of a 100 ms first draw in a trace of the unrecognized files at 100k files), and
 * the table is then drawn a second time with its rows, all before they reach the page. Instead the rows are first drawn
 * for a box as tall as the window (the table is never taller), the box's size comes from a ResizeObserver (after the
 * browser's own layout, before the paint), and a new box, which is at the top, is not scrolled to the top.
 */

export type BoxVirtualizer = Pick<Virtualizer<HTMLDivElement, Element>, 'scrollElement' | 'options'>;
export type BoxRect = { width: number; height: number };

/** The box's size for the first draw: the window's height. */
export const initialBoxRect = (): BoxRect => ({ width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight });

/** Reports the box's size whenever the ResizeObserver sees it (the first time after the first layout), never at once. */
export function observeBoxAfterLayout(instance: BoxVirtualizer, report: (rect: BoxRect) => void) {
  const box = instance.scrollElement;
  if (!box || typeof ResizeObserver === 'undefined') return;
  const observer = new ResizeObserver(() => {
    const { width, height } = box.getBoundingClientRect();
    report({ width: Math.round(width), height: Math.round(height) });
  });
  observer.observe(box);
  return () => observer.disconnect();
}

/** Boxes the virtualizer has written an offset to: a box not in here was never scrolled by it. */
const scrolledBoxes = new WeakSet<Element>();

/** The library's scroll, but a box's first write of the top (where a new box already is) is left out. */
export function scrollBox(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: BoxVirtualizer) {
  const box = instance.scrollElement;
  if (!box) return;
  const first = !scrolledBoxes.has(box);
  scrolledBoxes.add(box);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance as Virtualizer<HTMLDivElement, Element>);
}
