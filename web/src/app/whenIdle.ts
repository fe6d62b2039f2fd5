/**
 * Runs `task` once the page has had time to draw its content and the browser is idle: for code that nothing on screen
 * needs yet (a dialog's or a menu's implementation), so that it is there by the time someone opens one without
 * competing with the page's own scripts for the main thread. Returns a function that cancels it.
 */
export function whenIdle(task: () => unknown, delayMs = 3000): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(() => void task());
    else void task();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
