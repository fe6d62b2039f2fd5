/** Who is calling: a real user resolved from an API key, or the first-run principal of a fresh install. */
export type Principal = { kind: 'user'; userId: number; username: string; isAdmin: boolean } | { kind: 'init' };

/**
 * Route access levels (Fastify route `config.auth`). Routes without one are `user`: deny by default.
 * - none: anonymous allowed
 * - user: any valid API key
 * - admin: a key of an admin user (or the first-run principal)
 * - init: only the first-run principal (fresh install, server not started)
 */
export type AuthLevel = 'none' | 'user' | 'admin' | 'init';

export const isAdminPrincipal = (p: Principal | null): boolean => p !== null && (p.kind === 'init' || p.isAdmin);

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
    /** Served while the server is not Started (Shoko's InitFriendly); everything else answers 503 then. */
    initFriendly?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}
