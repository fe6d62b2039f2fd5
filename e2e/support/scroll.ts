import type { Page } from '@playwright/test';

export interface ListWalkOptions {
  /** The scrolling element; the window when absent. */
  scroller?: string;
  /** The list's items. */
  item: string;
  /** What names an item: one of its attributes, or the first group of a pattern matched against its text. */
  key: { attribute: string } | { textPattern: string };
  /** Stop once an item with this key has been inside the viewport. */
  stopAtKey?: string;
  /** An attribute of the scroller that reads "false" once every page is loaded: stop when it does at the bottom. */
  hasMoreAttribute?: string;
  maxSteps: number;
  /** How long the walk waits at the bottom for the next page before it gives up. */
  pageWaitMs?: number;
}

export interface ListWalk {
  steps: number;
  /** Per step, the animation frames from the scroll until an item was inside the viewport again (0: none came). */
  frames: number[];
  /** The longest of those waits in milliseconds, as a figure only: it grows with the load of the machine. */
  longestWaitMs: number;
  /** Keys of every item that was inside the viewport after some step. */
  seen: string[];
  /** The most items in the document after any step (a virtualized list keeps only a window of them). */
  mostInDocument: number;
  /** Where the list stood when the walk ended. */
  at: string;
  /** Why the walk ended. */
  ended: 'stop key seen' | 'list complete' | 'max steps' | 'no next page' | 'blank viewport';
}

/**
 * Scrolls a list one viewport at a time inside the page, without a round trip to the test between steps, and counts
 * the animation frames until items are inside the viewport again after each step. Frames, not a time: a list that
 * renders its rows with the scroll shows them in the next frame or two however busy the machine is, while a list
 * waiting for data stays empty for as many frames as the request takes. At the bottom it waits for the next page (the
 * scroll height grows) or for the list to say it is complete, not for a time.
 */
export function walkList(page: Page, options: ListWalkOptions): Promise<ListWalk> {
  return page.evaluate(
    async ({ scroller, item, key, stopAtKey, hasMoreAttribute, maxSteps, pageWaitMs }) => {
      const box = scroller ? document.querySelector<HTMLElement>(scroller) : null;
      const scrolling = box ?? document.scrollingElement ?? document.documentElement;
      const view = () => (box ? box.getBoundingClientRect() : { top: 0, bottom: window.innerHeight });
      const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      const pattern = 'textPattern' in key ? new RegExp(key.textPattern) : null;
      const keyOf = (el: HTMLElement) =>
        pattern ? (pattern.exec(el.textContent ?? '')?.[1] ?? '') : (el.getAttribute((key as { attribute: string }).attribute) ?? '');
      const inView = () => {
        const { top, bottom } = view();
        return Array.from(document.querySelectorAll<HTMLElement>(item)).filter((el) => {
          const r = el.getBoundingClientRect();
          return r.height > 0 && r.bottom > top && r.top < bottom;
        });
      };
      const seen = new Set<string>();
      const frames: number[] = [];
      let longestWaitMs = 0;
      let mostInDocument = 0;
      const result = (ended: string) => ({
        steps: frames.length,
        frames,
        longestWaitMs,
        seen: [...seen],
        mostInDocument,
        ended,
        at: `scrollTop ${scrolling.scrollTop}, scrollHeight ${scrolling.scrollHeight}, clientHeight ${scrolling.clientHeight}, ${document.querySelectorAll(item).length} items in the document`,
      });

      for (let step = 0; step < maxSteps; step++) {
        const before = scrolling.scrollTop;
        const started = performance.now();
        // Instant, whatever the page's scroll-behavior: a smooth scroll still running would be retargeted by the next step.
        if (box) box.scrollBy({ top: box.clientHeight, behavior: 'instant' });
        else window.scrollBy({ top: window.innerHeight, behavior: 'instant' });
        let visible: HTMLElement[] = [];
        let frame = 1;
        for (; frame <= 600; frame++) {
          await nextFrame();
          visible = inView();
          if (visible.length) break;
        }
        longestWaitMs = Math.max(longestWaitMs, performance.now() - started);
        frames.push(visible.length ? frame : 0);
        if (!visible.length) return result('blank viewport');
        for (const el of visible) seen.add(keyOf(el));
        mostInDocument = Math.max(mostInDocument, document.querySelectorAll(item).length);
        if (stopAtKey !== null && seen.has(stopAtKey)) return result('stop key seen');
        const atBottom = scrolling.scrollTop + scrolling.clientHeight >= scrolling.scrollHeight - 1;
        if (scrolling.scrollTop !== before || !atBottom) continue;

        // At the bottom: the next page is coming (the scroll height grows) or the list is complete.
        const complete = () => hasMoreAttribute !== null && box?.getAttribute(hasMoreAttribute) === 'false';
        const height = scrolling.scrollHeight;
        const waitStarted = performance.now();
        while (!complete() && scrolling.scrollHeight <= height) {
          if (performance.now() - waitStarted > pageWaitMs) return result('no next page');
          await nextFrame();
        }
        if (complete() && scrolling.scrollHeight <= height) return result('list complete');
      }
      return result('max steps');
    },
    {
      scroller: options.scroller ?? null,
      item: options.item,
      key: options.key,
      stopAtKey: options.stopAtKey ?? null,
      hasMoreAttribute: options.hasMoreAttribute ?? null,
      maxSteps: options.maxSteps,
      pageWaitMs: options.pageWaitMs ?? 60_000,
    },
  ) as Promise<ListWalk>;
}

/** The first step whose items took more than `budget` frames (or never came), for the failure message. */
export function slowestStep(walk: ListWalk, budget: number): string {
  const step = walk.frames.findIndex((f) => f === 0 || f > budget);
  return step < 0 ? 'none' : `step ${step}: ${walk.frames[step] === 0 ? 'no items within 600 frames' : `${walk.frames[step]} frames`}`;
}
