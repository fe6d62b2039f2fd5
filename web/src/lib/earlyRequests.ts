/** An answer index.html's start-up script (vite-plugins/routePreloads.ts) asked for before the console's code arrived. */
export interface EarlyRequest {
  apikey: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __shokoEarly?: Record<string, EarlyRequest | undefined>;
  }
}

/**
 * How long after the page was opened an early answer may still be used: the start-up asks for them at once; one nothing
 * asked for by then (a page that does not need it) is left alone rather than served stale to a later question.
 */
const EARLY_ANSWER_MAX_AGE_MS = 10_000;

/**
 * The response to a GET of `url` that the start-up script already asked for with the same key, taken once (a second
 * call, or a call with another key, asks the server itself). The version, status, user and settings every page waits
 * for thereby leave while the entry is still on its way instead of once it has arrived and run.
 */
export function takeEarlyResponse(url: string, apikey: string): Promise<Response> | null {
  const early = typeof window === 'undefined' ? undefined : window.__shokoEarly;
  if (!early) return null;
  if (performance.now() > EARLY_ANSWER_MAX_AGE_MS) {
    delete window.__shokoEarly;
    return null;
  }
  const href = new URL(url, document.baseURI).href;
  const found = early[href];
  if (!found) return null;
  delete early[href];
  return found.apikey === apikey ? found.response : null;
}
