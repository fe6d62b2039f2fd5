import type { Page } from '@playwright/test';

export interface ScrollStep {
  /** Animation frames from the scroll until an item was inside the viewport again; 0 when none came within the limit. */
  frames: number;
  /** The same wait in milliseconds, as a figure only: it grows with the load of the machine. */
  ms: number;
}

/**
 * Scrolls one viewport down (inside `scroller`, or the window without one) and counts the animation frames until an
 * element matching `item` is inside the viewport again. Frames, not a time: a list that renders its rows with the
 * scroll shows them in the next frame or two however busy the machine is, while a list waiting for data stays empty
 * for as many frames as the request takes.
 */
export function scrollOneViewport(page: Page, options: { scroller?: string; item: string; limit?: number }): Promise<ScrollStep> {
  return page.evaluate(
    async ({ scroller, item, limit }) => {
      const box = scroller ? document.querySelector<HTMLElement>(scroller) : null;
      const view = () => (box ? box.getBoundingClientRect() : { top: 0, bottom: window.innerHeight });
      const filled = () => {
        const { top, bottom } = view();
        return Array.from(document.querySelectorAll<HTMLElement>(item)).some((el) => {
          const r = el.getBoundingClientRect();
          return r.height > 0 && r.bottom > top && r.top < bottom;
        });
      };
      const started = performance.now();
      if (box) box.scrollBy(0, box.clientHeight);
      else window.scrollBy(0, window.innerHeight);
      for (let frame = 1; frame <= limit; frame++) {
        await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
        if (filled()) return { frames: frame, ms: performance.now() - started };
      }
      return { frames: 0, ms: performance.now() - started };
    },
    { scroller: options.scroller ?? null, item: options.item, limit: options.limit ?? 600 },
  );
}
