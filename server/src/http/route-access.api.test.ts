import { CONTRACT_ROUTES } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../test/harness.js';
import { accessTable, ROUTE_CLASSES, routeClass, routeKeys, type RouteClassName } from './access-policy.js';

/**
 * The contract's anonymous surface (server.md §1.5) minus the holes we close: DELETE /api/auth and
 * GET Init/StartServer need a key here. Anything not listed must refuse a request without a key.
 */
const ANONYMOUS = new Set(
  [
    'GET /healthz',
    'GET /api/v3/Init/Version',
    'GET /api/v3/Init/Status',
    'GET /api/v3/Init/Connectivity',
    'GET /api/v3/Init/InUse',
    'POST /api/auth',
    'GET /api/v3/WebUI/Theme',
    'GET /api/v3/WebUI/Theme.css',
    'GET /api/v3/WebUI/Theme/:themeID',
    // Only acts while no console is installed (a bootstrapper), as in the contract.
    'GET /api/v3/WebUI/Install',
    'POST /api/v3/WebUI/Install',
    // Images are anonymous so <img> tags and the login background work (collection.md §9).
    'GET /api/v3/Image/:source/:type/:value',
    'GET /api/v3/Image/Random/:imageType',
    'GET /api/v3/Image/Random/:imageType/Metadata',
    // Plex's webhook: key-less calls act only for the linked Plex server (domains/integrations/plex-webhook.ts).
    'POST /plex',
    'POST /plex.json',
    // Playback media (issue 43): the handler checks the signed `token` query instead of a key (403 without one).
    'GET /api/v3/Playback/Session/:sessionID/:name',
    'POST /api/v3/Playback/Session/:sessionID/Stop',
    'POST /api/v3/Playback/Session/:sessionID/KeepAlive',
    'GET /api/v3/Playback/File/:fileID/Subtitle/:subtitleID',
    'GET /api/v3/Playback/File/:fileID/Font/:index',
    'GET /',
    'GET /index.html',
    'GET /webui',
    'GET /webui/index.html',
    'GET /webui/*',
  ].map((r) => r.toLowerCase()),
);
const isAnonymous = (method: string, url: string) =>
  ANONYMOUS.has(`${method} ${url}`.toLowerCase()) ||
  url.startsWith('/swagger') ||
  // SignalR endpoints check the key themselves (access_token / Bearer); covered by the hub tests.
  url.toLowerCase().startsWith('/signalr');

const concreteUrl = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

describe('route access matrix', () => {
  let server: TestServer;
  let userKey: string;
  let adminKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'plain', 'pw')).key;
  });
  afterAll(() => server.close());

  it('registers a reasonable number of routes', () => {
    expect(server.routes.length).toBeGreaterThan(20);
  });

  it('refuses every non-anonymous route without a key (401, empty body)', async () => {
    const checked: string[] = [];
    for (const route of server.routes) {
      if (isAnonymous(route.method, route.url)) continue;
      const res = await server.request({
        method: route.method,
        url: concreteUrl(route.url),
        body: ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.body, `${route.method} ${route.url}`).toBe('');
      checked.push(`${route.method} ${route.url}`);
    }
    expect(checked.length).toBeGreaterThan(15);
  });

  it('classes every route the server serves and every route of the contract in the access table', () => {
    const unlisted = server.routes.filter((r) => !r.url.startsWith('/swagger') && !routeClass(r.method, r.url));
    expect(unlisted.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const contractUnlisted = CONTRACT_ROUTES.filter((route) => {
      const [method, path] = route.split(' ');
      return !routeClass(method!, path!);
    });
    expect(contractUnlisted).toEqual([]);
    // Nothing in the table that nobody serves (a renamed route would otherwise keep a stale entry).
    const served = new Set(server.routes.flatMap((r) => routeKeys(r.method, r.url)));
    const stale = accessTable().filter(({ route }) => {
      const [method, path] = route.split(' ');
      // The console's files are served only where a console is installed (test servers have none).
      if (route === 'GET /webui/{*path}') return false;
      return !routeKeys(method!, path!).some((key) => served.has(key));
    });
    expect(stale).toEqual([]);
  });

  it("agrees with the level a route's own config names", () => {
    const levelOf: Record<string, string> = { none: 'none', init: 'init', admin: 'admin', user: 'user' };
    const disagreeing = server.routes
      // The hubs' routes are `none` to Fastify and check their keys themselves.
      .filter((r) => r.auth !== undefined && !r.url.toLowerCase().startsWith('/signalr/') && !r.url.startsWith('/swagger'))
      .filter((r) => routeClass(r.method, r.url) && ROUTE_CLASSES[routeClass(r.method, r.url)!].level !== levelOf[r.auth!])
      .map((r) => `${r.method} ${r.url}: config ${r.auth}, table ${routeClass(r.method, r.url)}`);
    expect(disagreeing).toEqual([]);
  });

  it('gives a non-admin key 403 with the reason for every admin and first-run route, and lets it through the rest', async () => {
    const counts: Partial<Record<RouteClassName, number>> = {};
    for (const route of server.routes) {
      const name = routeClass(route.method, route.url);
      if (!name || route.url.startsWith('/swagger')) continue;
      counts[name] = (counts[name] ?? 0) + 1;
      // Logging out ends the key it is sent with: that one gets its own key.
      const key = route.method === 'DELETE' && route.url === '/api/auth' ? await login(server, 'plain', 'pw', 'logout') : userKey;
      const res = await server.request({
        method: route.method,
        url: concreteUrl(route.url),
        key,
        body: ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined,
      });
      const label = `${route.method} ${route.url} (${name})`;
      if (ROUTE_CLASSES[name].level === 'admin' || ROUTE_CLASSES[name].level === 'init') {
        expect(res.statusCode, label).toBe(403);
        expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/);
        expect(res.json(), label).toMatchObject({ status: 403, title: 'Forbidden', detail: ROUTE_CLASSES[name].reason });
      } else if (name !== 'public') {
        // Public routes may refuse a key themselves (a playback token, the Shoko import's report); the 401 test covers them.
        expect([401, 403], `${label} answered ${res.statusCode}: ${res.body.slice(0, 200)}`).not.toContain(res.statusCode);
      }
    }
    expect(counts.read).toBeGreaterThan(100);
    expect(counts.own).toBeGreaterThan(10);
    expect(counts.files).toBeGreaterThan(10);
  });

  it('closes the changes the issue found open to non-admins, and the log views', async () => {
    const expected: Record<string, RouteClassName> = {
      'PUT /api/v3/File/{fileID}/Ignore': 'files',
      'PUT /api/v3/File/{fileID}/Variation': 'files',
      'PUT /api/v3/Group/{groupID}': 'collection',
      'POST /api/v3/Group/{groupID}/Recalculate': 'collection',
      'POST /api/v3/File/{fileID}/Rescan': 'metadata',
      'POST /api/v3/File/{fileID}/Rehash': 'jobs',
      'POST /api/v3/Series/{seriesID}/AniDB/Refresh': 'metadata',
      'POST /api/v3/Series/AniDB/{anidbID}/Refresh': 'metadata',
      'POST /api/v3/File/{fileID}/AddToMyList': 'metadata',
      'GET /api/v3/Action/RunImport': 'jobs',
      'GET /api/v3/Action/ImportNewFiles': 'jobs',
      'GET /api/v3/Action/SearchForTmdbMatches': 'jobs',
      'GET /api/v3/Action/UpdateAllTmdbShows': 'jobs',
      'GET /api/v3/Action/UpdateAllTmdbMovies': 'jobs',
      'GET /api/v3/ImportFolder/{folderID}/Scan': 'jobs',
      'GET /api/v3/Queue/DebugStats': 'server',
      'POST /signalr/logging/negotiate': 'server',
      'GET /signalr/logging': 'server',
    };
    for (const [route, name] of Object.entries(expected)) {
      const [method, path] = route.split(' ');
      expect(routeClass(method!, path!), route).toBe(name);
      // The hubs check their keys themselves (the next test); every other one is asked as the non-admin.
      if (path!.startsWith('/signalr/')) continue;
      const res = await server.request({
        method: method!,
        url: path!.replace(/\{[A-Za-z]+\}/g, '1'),
        key: userKey,
        body: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, route).toBe(403);
      expect(res.json(), route).toMatchObject({ status: 403, detail: ROUTE_CLASSES[name].reason });
    }
  });

  it('lets only admins follow the log hub, whichever way the key comes; the aggregate hub stays open to every account', async () => {
    const negotiate = (hub: string, key: string, asBearer = false) =>
      server.request({
        method: 'POST',
        url: `/signalr/${hub}/negotiate?negotiateVersion=1${asBearer ? '' : `&access_token=${key}`}`,
        headers: asBearer ? { authorization: `Bearer ${key}` } : {},
      });
    for (const asBearer of [false, true]) {
      const refused = await negotiate('logging', userKey, asBearer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ status: 403, detail: ROUTE_CLASSES.server.reason });
      expect((await negotiate('logging', adminKey, asBearer)).statusCode).toBe(200);
      expect((await negotiate('aggregate', userKey, asBearer)).statusCode).toBe(200);
    }
    // A WebSocket may skip negotiation: the transport route refuses it the same way.
    expect((await server.request({ method: 'GET', url: `/signalr/logging?access_token=${userKey}` })).statusCode).toBe(403);
  });

  it('keeps what Shokofin and Shoko Relay call with a normal user key open to it', () => {
    // Their API clients' calls (Shokofin's ShokoApiClient, Shoko Relay's scripts): reads, scrobbling and votes.
    const clientCalls = [
      'GET /api/v3/ImportFolder/{id}',
      'GET /api/v3/ImportFolder/{id}/File',
      'GET /api/v3/File/{id}',
      'GET /api/v3/File/Hash/ED2K',
      'GET /api/v3/File/PathEndsWith',
      'GET /api/v3/File/PathEndsWith/{*path}',
      'GET /api/v3/File/{id}/UserStats',
      'PUT /api/v3/File/{id}/UserStats',
      'PATCH /api/v3/File/{id}/Scrobble',
      'GET /api/v3/Episode',
      'GET /api/v3/Episode/{id}',
      'GET /api/v3/Episode/{id}/Images',
      'GET /api/v3/Episode/{id}/Series',
      'POST /api/v3/Episode/{id}/Watched/{watched}',
      'POST /api/v3/Episode/{id}/Vote',
      'POST /api/v3/Series/{id}/Vote',
      'GET /api/v3/Series',
      'GET /api/v3/Series/{id}',
      'GET /api/v3/Series/{id}/AniDB',
      'GET /api/v3/Series/{id}/Episode',
      'GET /api/v3/Series/{id}/File',
      'GET /api/v3/Series/{id}/Cast',
      'GET /api/v3/Series/{id}/Relations',
      'GET /api/v3/Series/{id}/Images',
      'GET /api/v3/Series/{id}/Tags',
      'GET /api/v3/Series/{id}/Tags/User',
      'GET /api/v3/Series/{id}/Group',
      'GET /api/v3/Series/{id}/TMDB/Season',
      'GET /api/v3/Series/{id}/TMDB/Show/CrossReferences/Episode',
      'GET /api/v3/Series/PathEndsWith/{*path}',
      'GET /api/v3/Series/Search',
      'GET /api/v3/Series/AniDB',
      'GET /api/v3/Series/AniDB/{id}/Series',
      'GET /api/v3/Group',
      'GET /api/v3/Group/{id}',
      'GET /api/v3/Group/{id}/Group',
      'GET /api/v3/Filter/{id}/Group/{id}/Series',
      'POST /api/v3/Filter/Preview/Series/OnlyIDs',
      'GET /api/v3/Dashboard/RecentlyAddedSeries',
      'GET /api/v3/Tag/User',
      'GET /api/v3/Tmdb/Episode/{id}',
      'GET /api/v3/Tmdb/Episode/{id}/Shoko/Episode',
      'GET /api/v3/Tmdb/Movie/{id}',
      'GET /api/v3/Tmdb/Movie/{id}/Shoko/Series',
      'GET /api/v3/Tmdb/Season/{id}/Episode',
      'GET /api/v3/Tmdb/Show/{id}/Shoko/Series',
      'GET /api/v3/Image/{source}/{type}/{id}',
      'GET /signalr/aggregate',
    ];
    for (const call of clientCalls) {
      const [method, path] = call.split(' ');
      const name = routeClass(method!, path!);
      expect(name, call).toBeDefined();
      expect(['public', 'read', 'own'], call).toContain(name);
    }
  });

  it('keeps every backup route admin-only', () => {
    const backupRoutes = server.routes.filter((r) => r.url.toLowerCase().startsWith('/api/v3/backup'));
    expect(backupRoutes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'DELETE /api/v3/Backup/:name',
      'DELETE /api/v3/Backup/Restore',
      'GET /api/v3/Backup',
      'GET /api/v3/Backup/:name',
      'GET /api/v3/Backup/Status',
      'POST /api/v3/Backup',
      'POST /api/v3/Backup/:name/Restore',
    ]);
    expect(backupRoutes.every((r) => routeClass(r.method, r.url) === 'server')).toBe(true);
  });

  it('answers anonymous routes without a key', async () => {
    for (const url of ['/api/v3/Init/Version', '/api/v3/Init/Status', '/api/v3/Init/Connectivity', '/api/v3/WebUI/Theme']) {
      expect((await server.request({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('serves the API description without a key once the server runs, as Shoko publishes it', async () => {
    expect((await server.request({ method: 'GET', url: '/swagger/index.html' })).statusCode).toBe(302);
    expect((await server.request({ method: 'GET', url: '/swagger/' })).statusCode).toBe(200);
    const document = await server.request({ method: 'GET', url: '/swagger/v3/swagger.json' });
    expect(document.statusCode).toBe(200);
    expect(document.json<{ openapi: string }>().openapi).toMatch(/^3\./);
  });

  it('redirects / and /index.html to the console', async () => {
    for (const url of ['/', '/index.html', '/webui/index.html']) {
      const res = await server.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/webui');
    }
  });

  it('answers unknown API routes with an empty 404', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/NoSuchThing', key: userKey });
    expect(res.statusCode).toBe(404);
  });
});
