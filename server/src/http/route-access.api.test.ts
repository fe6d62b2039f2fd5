import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../test/harness.js';

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

  beforeAll(async () => {
    server = await createTestServer();
    const adminKey = await completeFirstRun(server);
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

  it('refuses every admin route to a non-admin key (403)', async () => {
    const adminRoutes = server.routes.filter((r) => r.auth === 'admin' || r.auth === 'init');
    expect(adminRoutes.length).toBeGreaterThan(5);
    for (const route of adminRoutes) {
      const res = await server.request({
        method: route.method,
        url: concreteUrl(route.url),
        key: userKey,
        body: ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
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
    expect(backupRoutes.every((r) => r.auth === 'admin')).toBe(true);
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
