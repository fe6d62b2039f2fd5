import os from 'node:os';

/**
 * Lowers the calling worker thread to nice 10, so that when the cores are busy the main thread, which answers
 * requests, runs first (issue 22: imports must not stall browsing). Linux only: there each thread has its own nice
 * value; elsewhere the call would lower the whole server. A refusal leaves the thread at the normal priority.
 */
export function runAsBackgroundThread(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(10);
  } catch {
    // Not allowed here: the thread keeps the normal priority.
  }
}
