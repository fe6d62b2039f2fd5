import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { App } from './types.js';

/**
 * Serving under a sub-path (`SHOKO_BASE_PATH=/shoko`) behind a reverse proxy that passes paths on unchanged: the
 * prefix is taken off every request before routing (WebSocket upgrades included), so routes, hooks and hubs see the
 * same paths as at the root. Requests outside the prefix answer 404, except `/`, which redirects to the console.
 *
 * A proxy that strips its prefix itself says so with `X-Forwarded-Prefix`; from a trusted proxy that prefix goes in
 * front of every address the server writes (the console's `<base>`, redirects, Swagger's server, stream listings).
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The path in front of `/api`, `/webui`… as the browser sees it: '' at the root, else e.g. '/shoko'. */
    publicPrefix: string;
  }
}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** `shoko/` → `/shoko`, `/` or empty → '' (the root); anything that is not a plain path throws. */
export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  const path = (trimmed.startsWith('/') ? trimmed : `/${trimmed}`).replace(/\/+$/, '');
  if (!path) return '';
  const segments = path.slice(1).split('/');
  if (segments.some((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    throw new Error(
      `SHOKO_BASE_PATH must be a path such as /shoko (letters, digits and . _ ~ - between slashes, no query), got "${value}"`,
    );
  }
  return path;
}

const outsideBasePath = Symbol('outsideBasePath');
type MarkedRequest = IncomingMessage & { [outsideBasePath]?: boolean };

/** Fastify's `rewriteUrl`: `/shoko/api/v3/…` → `/api/v3/…`; other URLs stay as they are, marked for the 404 hook. */
export function stripBasePath(basePath: string): ((request: IncomingMessage) => string) | undefined {
  if (!basePath) return undefined;
  const lowered = basePath.toLowerCase();
  return (request: MarkedRequest) => {
    const url = request.url ?? '/';
    const rest = url.slice(basePath.length);
    if (url.slice(0, basePath.length).toLowerCase() === lowered && (rest === '' || rest[0] === '/' || rest[0] === '?')) {
      return rest.startsWith('/') ? rest : `/${rest}`;
    }
    request[outsideBasePath] = true;
    return url;
  };
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether a peer address is one of `SHOKO_TRUSTED_PROXIES`: addresses, CIDR ranges, or the names loopback,
 * linklocal and uniquelocal. Invalid entries throw at startup. IPv4 peers seen as `::ffff:a.b.c.d` count as IPv4.
 */
export function trustedProxyMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries.flatMap((item) => NAMED_RANGES[item.toLowerCase()] ?? [item])) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`SHOKO_TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
    list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    if (!address) return false;
    const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The last `X-Forwarded-Prefix` a trusted proxy sent, normalised; '' when absent, untrusted or not a plain path. */
function forwardedPrefix(request: FastifyRequest, trusts: (address: string | undefined) => boolean): string {
  const header = request.headers['x-forwarded-prefix'];
  if (!header || !trusts(request.raw.socket?.remoteAddress)) return '';
  const last = [header].flat().join(',').split(',').pop() ?? '';
  try {
    return normalizeBasePath(last);
  } catch {
    return '';
  }
}

/**
 * Sets `request.publicPrefix` on every request and answers requests outside the base path: `GET /` redirects to the
 * console under it, the rest is 404. Register before any other hook.
 */
export function registerBasePath(app: App, basePath: string, trusts: (address: string | undefined) => boolean): void {
  app.decorateRequest('publicPrefix', '');
  app.addHook('onRequest', async (request, reply) => {
    request.publicPrefix = forwardedPrefix(request, trusts) + basePath;
    if (!(request.raw as MarkedRequest)[outsideBasePath]) return;
    if ((request.method === 'GET' || request.method === 'HEAD') && request.url.split('?')[0] === '/') {
      return reply.redirect(`${request.publicPrefix}/webui`, 302);
    }
    return reply.code(404).type('text/plain; charset=utf-8').send(`This server answers under ${basePath}/ (SHOKO_BASE_PATH).`);
  });
}

/** The server's own address as the browser reached it (scheme and host from a trusted proxy), with the prefix. */
export const publicBaseUrl = (request: FastifyRequest): string => `${request.protocol}://${request.host}${request.publicPrefix}`;
