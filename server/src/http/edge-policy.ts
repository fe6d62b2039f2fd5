import type { FastifyRequest } from 'fastify';
import { problemError } from './problem.js';
import type { App } from './types.js';

/**
 * What the server tells browsers at its edge: which foreign origins may call the API (CORS) and the security headers
 * every response carries. Same-origin callers (our console, the official web UI served by us) need no CORS at all;
 * another front end must be listed by its exact origin.
 */

/**
 * The console and the official web UI both load only their own scripts; they set inline styles (React style props,
 * Monaco, toasts), draw images the server or a CDN sends, open SignalR sockets to the server, and the official UI reads
 * its news and release feeds over HTTPS. Themes are user CSS that may pull web fonts; scripts stay ours alone.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // The official web UI's code editors load Monaco from jsDelivr when its bundle leaves Monaco out (its builds do);
  // our console bundles its own. Nothing else may run scripts from elsewhere. The player's subtitle renderer (libass)
  // is WebAssembly, which needs 'wasm-unsafe-eval' (compiling WebAssembly, not JavaScript eval).
  "script-src 'self' 'wasm-unsafe-eval' https://cdn.jsdelivr.net/npm/",
  "style-src 'self' 'unsafe-inline' https:",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data: https:",
  "connect-src 'self' ws: wss: https:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const HSTS_VALUE = 'max-age=31536000';

export function securityHeaders(servedOverHttps: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(servedOverHttps ? { 'Strict-Transport-Security': HSTS_VALUE } : {}),
  };
}

/** Parses `SHOKO_CORS_ORIGINS`-style lists: comma or space separated origins, normalised, `*` refused. */
export function parseOriginList(value: string | undefined | readonly string[]): string[] {
  const items = Array.isArray(value) ? value : String(value ?? '').split(/[\s,]+/);
  const origins = new Set<string>();
  for (const item of items) {
    const origin = normalizeOrigin(item);
    if (origin) origins.add(origin);
  }
  return [...origins];
}

/** `https://Example.org:443/` → `https://example.org`; anything that is not an http(s) origin → undefined. */
export function normalizeOrigin(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed || trimmed === '*' || trimmed === 'null') return undefined;
  try {
    const url = new URL(trimmed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser request from `origin` may read the API's answers. The server's own origin (as the request reached
 * it: Host, or X-Forwarded-Host/Proto from a trusted proxy) is always allowed; others only when listed.
 */
export function isAllowedOrigin(origin: string, ownOrigins: readonly string[], allowList: readonly string[]): boolean {
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  return ownOrigins.includes(normalized) || allowList.includes(normalized);
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface EdgeConfig {
  /** Exact origins of other front ends allowed to call the API from a browser (SHOKO_CORS_ORIGINS). */
  corsOrigins: string[];
  /** Addresses or CIDR ranges of reverse proxies whose X-Forwarded-* headers are believed (SHOKO_TRUSTED_PROXIES). */
  trustedProxies: string[];
}

export function readEdgeConfig(env: NodeJS.ProcessEnv): EdgeConfig {
  return {
    corsOrigins: parseOriginList(env.SHOKO_CORS_ORIGINS),
    trustedProxies: String(env.SHOKO_TRUSTED_PROXIES ?? '')
      .split(/[\s,]+/)
      .filter(Boolean),
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser sent this request from a page of another site. Sec-Fetch-Site is the browser's own word and
 * survives proxies that rewrite Host; without it, Origin is compared with the address the request reached.
 */
function isForeignBrowserRequest(request: FastifyRequest, corsOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (corsOrigins.includes(normalizeOrigin(origin) ?? '')) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  if (typeof fetchSite === 'string') return true;
  return !isAllowedOrigin(origin, [`${request.protocol}://${request.host}`], []);
}

/**
 * Security headers on every answer, and no state change from another site's page: a form or script there could
 * otherwise log in, or finish a fresh install's first run, in the visitor's name. Requests carrying an `apikey` header
 * cannot come from another site without a CORS grant, so only key-less writes need the check.
 */
export function registerEdgePolicy(app: App, edge: EdgeConfig): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.headers.apikey !== undefined) return;
    if (isForeignBrowserRequest(request, edge.corsOrigins)) {
      throw problemError(403, 'Requests from another site are refused; list its origin in SHOKO_CORS_ORIGINS to allow it.');
    }
  });
  app.addHook('onSend', async (request, reply) => {
    for (const [name, value] of Object.entries(securityHeaders(request.protocol === 'https'))) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
  });
}
