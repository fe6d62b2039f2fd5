import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, setEnv, type TestServer } from '../test/harness.js';

/** A built console in miniature: index.html as Vite writes it (a `<base>` and relative assets) and one asset. */
function consoleFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-basepath-webui-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/webui/" /><script type="module" src="./assets/app.js"></script></head><body></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'export {};\n');
  return dir;
}

const baseHref = (html: string) => /<base href="([^"]*)"/.exec(html)?.[1];

describe('SHOKO_BASE_PATH=/shoko', () => {
  let server: TestServer;
  let key: string;
  let webuiDir: string;
  let restoreEnv: () => void;

  beforeAll(async () => {
    restoreEnv = setEnv({ SHOKO_TRUSTED_PROXIES: '127.0.0.2' });
    webuiDir = consoleFixture();
    server = await createTestServer({ basePath: '/shoko', webuiDir });
    await server.request({ method: 'POST', url: '/shoko/api/v3/Init/DefaultUser', body: { Username: 'Default', Password: 'pw' } });
    await server.request({ method: 'GET', url: '/shoko/api/v3/Init/StartServer' });
    for (let i = 0; i < 200; i += 1) {
      const status = await server.request({ method: 'GET', url: '/shoko/api/v3/Init/Status' });
      if (status.json<{ State: string }>().State === 'Started') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const login = await server.request({ method: 'POST', url: '/shoko/api/auth', body: { user: 'Default', pass: 'pw', device: 'test' } });
    expect(login.statusCode).toBe(200);
    key = login.json<{ apikey: string }>().apikey;
  });

  afterAll(async () => {
    await server?.close();
    restoreEnv?.();
    fs.rmSync(webuiDir, { recursive: true, force: true });
  });

  it('answers every kind of route under the prefix and none at the root', async () => {
    const routes: Array<{ method: string; url: string; body?: unknown }> = [
      { method: 'GET', url: '/api/v3/Init/Status' },
      { method: 'GET', url: '/api/v3/Dashboard/Stats' },
      { method: 'GET', url: '/api/auth' },
      { method: 'GET', url: '/api/trakt/get' },
      { method: 'GET', url: '/plex/loginurl' },
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/swagger/' },
      { method: 'GET', url: '/swagger/v3/swagger.json' },
      { method: 'GET', url: '/webui' },
      { method: 'GET', url: '/webui/collection/series/3' },
      { method: 'GET', url: '/webui/assets/app.js' },
      { method: 'POST', url: '/signalr/aggregate/negotiate?negotiateVersion=1' },
    ];
    for (const route of routes) {
      const under = await server.request({ ...route, url: `/shoko${route.url}`, key });
      // Reached its handler: Plex's routes answer 502 here, as plex.tv cannot be reached.
      expect(under.statusCode, `${route.method} /shoko${route.url}`).not.toBe(404);
      expect(under.body).not.toContain('This server answers under');
      const atRoot = await server.request({ ...route, key });
      expect(atRoot.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(atRoot.body).toContain('/shoko/');
    }
    // The prefix ends at a slash: /shokox is outside.
    expect((await server.request({ method: 'GET', url: '/shokox/api/v3/Init/Status' })).statusCode).toBe(404);
    // Routes stay case-insensitive, and so does the prefix.
    expect((await server.request({ method: 'GET', url: '/Shoko/api/v3/init/status' })).statusCode).toBe(200);
  });

  it('redirects the root and the bare prefix to the console under the prefix', async () => {
    for (const url of ['/', '/shoko', '/shoko/', '/shoko/index.html', '/shoko/webui/index.html']) {
      const res = await server.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location, url).toBe('/shoko/webui');
    }
    const swagger = await server.request({ method: 'GET', url: '/shoko/swagger', key });
    expect(swagger.statusCode).toBe(302);
    expect(swagger.headers.location).toBe('/shoko/swagger/');
    const swaggerIndex = await server.request({ method: 'GET', url: '/shoko/swagger/index.html', key });
    expect(swaggerIndex.headers.location).toBe('/shoko/swagger/');
  });

  it('tells the console and Swagger where they live', async () => {
    const deepLink = await server.request({ method: 'GET', url: '/shoko/webui/collection/series/3' });
    expect(deepLink.headers['content-type']).toContain('text/html');
    expect(baseHref(deepLink.body)).toBe('/shoko/webui/');
    expect(deepLink.body.match(/<base /g)).toHaveLength(1);
    expect(deepLink.headers['content-security-policy']).toContain("base-uri 'self'");
    for (const url of ['/shoko/swagger/v3/swagger.json', '/shoko/swagger/json']) {
      const document = (await server.request({ method: 'GET', url, key })).json<{ servers?: Array<{ url: string }>; paths: object }>();
      expect(document.servers, url).toEqual([{ url: '/shoko' }]);
      expect(Object.keys(document.paths)).toContain('/api/v3/Init/Status');
    }
  });

  it('connects the SignalR hubs over a WebSocket under the prefix', async () => {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const connection = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${address.port}/shoko/signalr/aggregate?feeds=queue`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => key,
      })
      .configureLogging(LogLevel.None)
      .build();
    const queueState = new Promise<unknown>((resolve) => connection.on('Queue:OnConnected', resolve));
    await connection.start();
    try {
      expect(connection.connectionId).toBeTruthy();
      expect(await queueState).toBeTruthy();
    } finally {
      await connection.stop();
    }
    const rootNegotiate = await fetch(`http://127.0.0.1:${address.port}/signalr/aggregate/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { apikey: key },
    });
    expect(rootNegotiate.status).toBe(404);
  });

  it('writes the address the browser used into stream listings: forwarded scheme and host only from a trusted proxy', async () => {
    const media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-basepath-media-'));
    try {
      // A real Matroska file: the listing names the external subtitles its media analysis found.
      fs.copyFileSync(path.join(import.meta.dirname, '../media/mediainfo/fixtures/sample.mkv'), path.join(media, 'Episode 01.mkv'));
      fs.writeFileSync(path.join(media, 'Episode 01.en.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHello\n');
      const folder = (
        await server.request({ method: 'POST', url: '/shoko/api/v3/ImportFolder', key, body: { Name: 'Media', Path: media } })
      ).json<{ ID: number }>();
      await server.request({ method: 'GET', url: `/shoko/api/v3/ImportFolder/${folder.ID}/Scan`, key });
      await server.services.queue.idle();
      const files = (await server.request({ method: 'GET', url: '/shoko/api/v3/File?pageSize=0', key })).json<{
        List: Array<{ ID: number }>;
      }>();
      const listing = (remoteAddress: string) =>
        server.app.inject({
          method: 'GET',
          url: `/shoko/api/v3/File/${files.List[0]!.ID}/StreamDirectory/`,
          remoteAddress,
          headers: { apikey: key, host: '127.0.0.1:8111', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'media.example.org' },
        });
      const link = async (remoteAddress: string) => /href="([^"]+)"/.exec((await listing(remoteAddress)).body)?.[1];
      expect(await link('127.0.0.2')).toBe(
        `https://media.example.org/shoko/api/v3/File/${files.List[0]!.ID}/StreamDirectory/ExternalSub/Episode%2001.en.srt`,
      );
      expect(await link('198.51.100.7')).toBe(
        `http://127.0.0.1:8111/shoko/api/v3/File/${files.List[0]!.ID}/StreamDirectory/ExternalSub/Episode%2001.en.srt`,
      );
    } finally {
      fs.rmSync(media, { recursive: true, force: true });
    }
  });

  it("puts a trusted proxy's X-Forwarded-Prefix in front of the base path, and ignores anyone else's", async () => {
    const console = (remoteAddress: string, headers: Record<string, string>) =>
      server.app.inject({ method: 'GET', url: '/shoko/webui/dashboard', remoteAddress, headers });
    const trusted = await console('127.0.0.2', { 'x-forwarded-prefix': '/media/' });
    expect(baseHref(trusted.body)).toBe('/media/shoko/webui/');
    const forged = await console('198.51.100.7', { 'x-forwarded-prefix': '/media' });
    expect(baseHref(forged.body)).toBe('/shoko/webui/');
    const garbage = await console('127.0.0.2', { 'x-forwarded-prefix': '/"><script>' });
    expect(baseHref(garbage.body)).toBe('/shoko/webui/');
    const redirect = await server.app.inject({
      method: 'GET',
      url: '/',
      remoteAddress: '127.0.0.2',
      headers: { 'x-forwarded-prefix': '/media' },
    });
    expect(redirect.headers.location).toBe('/media/shoko/webui');
  });
});

describe('without SHOKO_BASE_PATH', () => {
  let server: TestServer;
  let key: string;
  let webuiDir: string;
  let restoreEnv: () => void;

  beforeAll(async () => {
    restoreEnv = setEnv({ SHOKO_TRUSTED_PROXIES: 'loopback' });
    webuiDir = consoleFixture();
    server = await createTestServer({ webuiDir });
    key = await completeFirstRun(server);
  });

  afterAll(async () => {
    await server?.close();
    restoreEnv?.();
    fs.rmSync(webuiDir, { recursive: true, force: true });
  });

  it('serves everything at the root as before', async () => {
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/Status' })).statusCode).toBe(200);
    const root = await server.request({ method: 'GET', url: '/' });
    expect(root.headers.location).toBe('/webui');
    expect(baseHref((await server.request({ method: 'GET', url: '/webui/log' })).body)).toBe('/webui/');
    const document = (await server.request({ method: 'GET', url: '/swagger/v3/swagger.json', key })).json<{ servers?: unknown }>();
    expect(document.servers).toBeUndefined();
  });

  it('follows a trusted proxy that strips its own prefix (X-Forwarded-Prefix), not an untrusted caller', async () => {
    const viaProxy = await server.app.inject({
      method: 'GET',
      url: '/webui/log',
      remoteAddress: '::ffff:127.0.0.1',
      headers: { 'x-forwarded-prefix': '/shoko' },
    });
    expect(baseHref(viaProxy.body)).toBe('/shoko/webui/');
    const redirect = await server.app.inject({
      method: 'GET',
      url: '/',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-prefix': '/shoko' },
    });
    expect(redirect.headers.location).toBe('/shoko/webui');
    const forged = await server.app.inject({
      method: 'GET',
      url: '/webui/log',
      remoteAddress: '192.0.2.10',
      headers: { 'x-forwarded-prefix': '/shoko' },
    });
    expect(baseHref(forged.body)).toBe('/webui/');
  });
});
