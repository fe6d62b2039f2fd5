/**
 * Optional error reporting. Off unless the build sets VITE_ERROR_REPORTING_DSN: without it nothing here ever touches
 * the network. With it, errors are posted to that endpoint; performance traces are sampled at 10 % and a session
 * "replay" (the recent navigation trail) is only attached to error reports, never sent on its own.
 */
export const errorReportingConfig = {
  dsn: import.meta.env.VITE_ERROR_REPORTING_DSN?.trim() || null,
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0,
  replaysOnErrorSampleRate: 1,
} as const;

const trail: string[] = [];
const TRAIL_LENGTH = 20;

export function isErrorReportingEnabled(): boolean {
  return errorReportingConfig.dsn !== null;
}

function send(payload: Record<string, unknown>) {
  const dsn = errorReportingConfig.dsn;
  if (!dsn) return;
  const body = JSON.stringify({ ...payload, release: __WEBUI_VERSION__, url: location.pathname, at: new Date().toISOString() });
  if (!navigator.sendBeacon?.(dsn, body)) void fetch(dsn, { method: 'POST', body, keepalive: true }).catch(() => {});
}

/** Remembers a navigation for the error-only replay. */
export function recordNavigation(path: string) {
  if (!isErrorReportingEnabled()) return;
  trail.push(`${new Date().toISOString()} ${path}`);
  if (trail.length > TRAIL_LENGTH) trail.shift();
}

export function reportError(error: unknown) {
  if (!isErrorReportingEnabled()) return;
  const err = error instanceof Error ? error : new Error(String(error));
  const withReplay = Math.random() < errorReportingConfig.replaysOnErrorSampleRate;
  send({ kind: 'error', name: err.name, message: err.message, stack: err.stack, ...(withReplay ? { replay: [...trail] } : {}) });
}

/** A sampled timing, e.g. how long the first screen took. */
export function reportTrace(name: string, durationMs: number) {
  if (!isErrorReportingEnabled() || Math.random() >= errorReportingConfig.tracesSampleRate) return;
  send({ kind: 'trace', name, durationMs });
}

export function installGlobalErrorReporting() {
  if (!isErrorReportingEnabled()) return;
  window.addEventListener('error', (event) => reportError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason));
  window.addEventListener('load', () => reportTrace('page-load', performance.now()), { once: true });
}
