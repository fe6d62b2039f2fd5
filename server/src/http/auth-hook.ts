import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.js';
import { ROUTE_CLASSES, routeClass, type RouteClassName } from './access-policy.js';
import { isAdminPrincipal, type AuthLevel, type Principal } from './principal.js';
import { problemBody } from './problem.js';
import { sendText } from './reply.js';

export const NOT_RUNNING_MESSAGE =
  'The Server is not running. Use the First Time Setup Wizard or check your settings and logs to ensure the server is starting correctly.';

export interface AuthHookDeps {
  resolveKey(apiKey: string): Promise<Principal | null>;
  /** True while the install has no accounts: then callers act as the first-run principal. */
  isFreshInstall(): Promise<boolean>;
  isStarted(): boolean;
}

/** API keys arrive in the `apikey` header and/or query parameter; every value is tried. */
function candidateKeys(request: FastifyRequest): string[] {
  const values: string[] = [];
  const push = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(push);
    else if (typeof v === 'string' && v.trim()) values.push(v.trim());
  };
  push(request.headers.apikey);
  push((request.query as Record<string, unknown> | undefined)?.apikey);
  return values;
}

/** A database that cannot answer must not block the status endpoints that report why; treat it as not fresh. */
async function isFresh(deps: AuthHookDeps): Promise<boolean> {
  try {
    return await deps.isFreshInstall();
  } catch {
    return false;
  }
}

const isPublicDocument = (url: string) => /^\/(webui|swagger)(\/|$)/i.test(url);
/** The SignalR hubs read their keys themselves (`access_token`, Bearer) and apply the access table there. */
const isHubEndpoint = (url: string) => /^\/signalr\//i.test(url);

/**
 * A route's access: its class in the access table (access-policy.ts). A route missing there (the route-access test
 * names each one) keeps the level its own config names, and without one needs a key.
 */
function accessOf(method: string, url: string, configured: AuthLevel | undefined): { level: AuthLevel; class?: RouteClassName } {
  const name = routeClass(method, url);
  if (name) return { level: ROUTE_CLASSES[name].level, class: name };
  return { level: configured ?? (isPublicDocument(url) ? 'none' : 'user') };
}

const reasonOf = (name: RouteClassName | undefined, fallback: RouteClassName) => ROUTE_CLASSES[name ?? fallback].reason;
const forbidden = (reply: FastifyReply, reason: string) => reply.code(403).type('application/problem+json').send(problemBody(403, reason));

/**
 * Deny by default: a route's level comes from the access table. An admin or first-run route refused to a real account
 * answers 403 with a problem body naming the reason (Shoko's is empty; the console shows `detail` in its toast). While
 * the server is not started only init-friendly routes run (503 otherwise), as in Shoko.
 */
export function registerAuthHook(app: App, deps: AuthHookDeps) {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config ?? {};
    const url = request.routeOptions.url;
    // Unmatched requests (404s, static files) carry no auth config and need none.
    if (!url) return;
    const access = accessOf(request.method, url, config.auth);
    const level = isHubEndpoint(url) ? 'none' : access.level;

    const started = deps.isStarted();
    let principal: Principal | null = null;
    if (!started && (await isFresh(deps))) {
      principal = { kind: 'init' };
    } else {
      for (const key of candidateKeys(request)) {
        principal = await deps.resolveKey(key);
        if (principal) break;
      }
    }
    request.principal = principal;

    if (level === 'user' && !principal) return reply.code(401).send();
    if (level === 'admin') {
      if (!principal) return reply.code(401).send();
      if (!isAdminPrincipal(principal)) return forbidden(reply, reasonOf(access.class, 'server'));
    }
    if (level === 'init' && principal?.kind !== 'init') {
      return principal ? forbidden(reply, reasonOf(access.class, 'firstRun')) : reply.code(401).send();
    }
    const path = request.url.toLowerCase();
    if (!started && !config.initFriendly && (path.startsWith('/api') || path.startsWith('/plex'))) {
      return sendText(reply, NOT_RUNNING_MESSAGE, 503);
    }
  });
}
