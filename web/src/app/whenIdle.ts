import { queryClient } from './queryClient';

/** How long a task waits at most for the page's requests to end; past it the task is dropped. */
const MAX_WAIT_MS = 15_000;

/**
 * Runs `task` once the page has drawn its content: at least `delayMs` after the call, when no request of the page is
 * under way and the browser is idle. For code that nothing on screen needs yet (a dialog's or a menu's implementation),
 * so that it is there by the time someone opens one without competing with the page's own scripts and answers for the
 * main thread (on a busy machine a page's answers can take longer than any fixed delay). Returns a function that cancels it.
 */
export function whenIdle(task: () => unknown, delayMs = 3000): () => void {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  let unsubscribe: (() => void) | undefined;
  const run = () => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(() => void task());
    else void task();
  };
  const whenQuiet = () => {
    unsubscribe?.();
    unsubscribe = undefined;
    if (queryClient.isFetching() === 0) return run();
    // A page that keeps asking (a long list being scrolled) is busy: the code then loads when it is first used instead.
    if (Date.now() - started > MAX_WAIT_MS) return;
    timer = setTimeout(whenQuiet, MAX_WAIT_MS - (Date.now() - started) + 1);
    unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe?.();
      unsubscribe = undefined;
      clearTimeout(timer);
      // The answers are in: leave the page a moment to draw them (and to ask for what they lead to).
      timer = setTimeout(whenQuiet, 300);
    });
  };
  timer = setTimeout(whenQuiet, delayMs);
  return () => {
    clearTimeout(timer);
    unsubscribe?.();
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
