import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.js';
import { isAdminPrincipal, type Principal } from './principal.js';
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

/**
 * Deny by default: every route is `user` unless its config says otherwise. While the server is not started only
 * init-friendly routes run (503 otherwise), as in Shoko.
 */
export function registerAuthHook(app: App, deps: AuthHookDeps) {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config ?? {};
    // Unmatched requests (404s, static files) carry no auth config and need none.
    if (!request.routeOptions.url) return;
    // The console's static files and the API description (as Shoko publishes it) are public; every other route
    // without an explicit level needs a key.
    const level = config.auth ?? (isPublicDocument(request.routeOptions.url) ? 'none' : 'user');

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
      if (!isAdminPrincipal(principal)) return reply.code(403).send();
    }
    if (level === 'init' && principal?.kind !== 'init') {
      return reply.code(principal ? 403 : 401).send();
    }
    const path = request.url.toLowerCase();
    if (!started && !config.initFriendly && (path.startsWith('/api') || path.startsWith('/plex'))) {
      return sendText(reply, NOT_RUNNING_MESSAGE, 503);
    }
  });
}
