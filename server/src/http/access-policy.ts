import type { AuthLevel } from './principal.js';
import {
  ACCOUNTS_ROUTES,
  COLLECTION_ROUTES,
  FILES_ROUTES,
  JOBS_ROUTES,
  METADATA_ROUTES,
  SERVER_ROUTES,
  SETTINGS_ROUTES,
  UNRESTRICTED_ROUTES,
} from './access-routes/admin.js';
import { FIRST_RUN_ROUTES, PUBLIC_ROUTES } from './access-routes/open.js';
import { OWN_ROUTES, READ_ROUTES } from './access-routes/user.js';

/**
 * Who may call which route: one table for the whole server, applied by the auth hook (auth-hook.ts) and by the SignalR
 * hubs, which check their keys themselves. A non-admin account reads what its tag restrictions let it see and changes
 * its own state (watch state, resume positions, votes, API keys, password, avatar, console settings, Plex link);
 * everything that changes files, links, groups, series, metadata, jobs or settings for everyone is for administrators,
 * and the 403 says which of these it is. Shoko lets ordinary users do much of the latter; we keep the routes and close
 * that hole. The route-access test holds every route of the contract and every extension to this table.
 */
export interface RouteClass {
  level: AuthLevel;
  /** What the class covers; for the admin classes also the `detail` of the 403 problem body. */
  reason: string;
}

export const ROUTE_CLASSES = {
  public: { level: 'none', reason: 'Open to anyone, without a key.' },
  firstRun: {
    level: 'init',
    reason: 'This is part of the first-run setup; it closes once the server has an administrator and is running.',
  },
  read: { level: 'user', reason: 'Any account may read this; lists and entries follow its tag restrictions.' },
  own: { level: 'user', reason: "Any account may change this: it is the caller's own state." },
  files: {
    level: 'admin',
    reason: 'Files, their locations and their links are the same for every user; only an administrator may change them.',
  },
  collection: {
    level: 'admin',
    reason: 'Groups, series, episodes, tags and filters are shared by every user; only an administrator may change them.',
  },
  metadata: {
    level: 'admin',
    reason: 'AniDB and TMDB data, links and images are shared by every user; only an administrator may fetch or change them.',
  },
  jobs: {
    level: 'admin',
    reason: 'Imports, scans, refreshes, syncs and the queue work for the whole server; only an administrator may start or control them.',
  },
  settings: {
    level: 'admin',
    reason: "The server's settings, its linked services and the console's version and themes are for administrators only.",
  },
  accounts: { level: 'admin', reason: "Other users' accounts are for administrators only." },
  server: {
    level: 'admin',
    reason: "The server's logs, queue details, file system, backups and start-up are for administrators only.",
  },
  unrestricted: {
    level: 'admin',
    reason: "This lists the whole collection past every account's tag restrictions; only an administrator may do it.",
  },
} as const satisfies Record<string, RouteClass>;

export type RouteClassName = keyof typeof ROUTE_CLASSES;

/**
 * The access table: every route (`METHOD /path` as the contract writes it, `{param}` placeholders) by class. The
 * route lists live beside this file by who may call them (access-routes/open.ts, user.ts, admin.ts); this is the one
 * place they are put together.
 */
const TABLE: Record<RouteClassName, readonly string[]> = {
  public: PUBLIC_ROUTES,
  firstRun: FIRST_RUN_ROUTES,
  read: READ_ROUTES,
  own: OWN_ROUTES,
  files: FILES_ROUTES,
  collection: COLLECTION_ROUTES,
  metadata: METADATA_ROUTES,
  jobs: JOBS_ROUTES,
  settings: SETTINGS_ROUTES,
  accounts: ACCOUNTS_ROUTES,
  server: SERVER_ROUTES,
  unrestricted: UNRESTRICTED_ROUTES,
};

const PARAMETER = /\{\*?[A-Za-z]+(?::[a-z]+)?\??\}|:[A-Za-z]+\??|\*$/g;

/**
 * `method /path` with every parameter written `{}`, in lower case, without a trailing slash, so that the contract's
 * `{param}` form and Fastify's `:param` form meet. A parameter with a suffix (`{themeID}.css`) is its bare parameter's
 * route, and HEAD is its GET.
 */
export function routeKey(method: string, path: string): string {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method;
  return `${verb} ${path
    .replace(PARAMETER, '{}')
    .replace(/\{\}\.[a-z]+$/i, '{}')
    .replace(/\/$/, '')}`.toLowerCase();
}

/** The keys a route answers to: an optional last segment (`{name?}`, `:name?`) may also be left out. */
export function routeKeys(method: string, path: string): string[] {
  const keys = [routeKey(method, path)];
  const optionalTail = /\/(\{[^}]*\?\}|:[A-Za-z]+\?)$/;
  if (optionalTail.test(path)) keys.push(routeKey(method, path.replace(optionalTail, '')));
  return keys;
}

const CLASS_BY_KEY = new Map<string, RouteClassName>();
for (const [name, routes] of Object.entries(TABLE) as [RouteClassName, readonly string[]][]) {
  for (const route of routes) {
    const [method, path] = route.split(' ');
    for (const key of routeKeys(method!, path!)) {
      const known = CLASS_BY_KEY.get(key);
      if (known && known !== name) throw new Error(`access-policy: ${route} is both ${known} and ${name}`);
      CLASS_BY_KEY.set(key, name);
    }
  }
}

const classOfRoute = new Map<string, RouteClassName | undefined>();

/** The class of a route (`GET`, `/api/v3/Series/:seriesID` or `/api/v3/Series/{seriesID}`), or undefined if unlisted. */
export function routeClass(method: string, path: string): RouteClassName | undefined {
  const route = `${method} ${path}`;
  if (!classOfRoute.has(route)) classOfRoute.set(route, CLASS_BY_KEY.get(routeKey(method, path)));
  return classOfRoute.get(route);
}

/** Every route of the table with its class, for the tests and the summary. */
export function accessTable(): Array<{ route: string; class: RouteClassName }> {
  return (Object.entries(TABLE) as [RouteClassName, readonly string[]][]).flatMap(([name, routes]) =>
    routes.map((route) => ({ route, class: name })),
  );
}
