import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, setEnv, type TestServer } from '../test/harness.js';

/** The server's edge (issue 21): password guessing, cross-origin calls, security headers, body sizes, system folders. */
describe('HTTP edge', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;
  let restoreEnv: () => void;
  const media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-edge-media-'));

  beforeAll(async () => {
    restoreEnv = setEnv({ SHOKO_CORS_ORIGINS: 'https://ui.example, http://192.0.2.7:3000', SHOKO_TRUSTED_PROXIES: '127.0.0.2' });
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterAll(async () => {
    await server.close();
    restoreEnv();
    fs.rmSync(media, { recursive: true, force: true });
  });

  const login = (user: string, pass: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'POST',
      url: '/api/auth',
      remoteAddress,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ user, pass, device: 'edge-test' }),
    });

  describe('password guessing', () => {
    it('answers 429 with Retry-After after five wrong passwords, even to the right one, and logs it', async () => {
      for (let i = 0; i < 5; i += 1) expect((await login('viewer', `wrong-${i}`, '198.51.100.1')).statusCode).toBe(401);
      const blocked = await login('viewer', 'wrong-again', '198.51.100.1');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(blocked.headers['content-type']).toContain('application/problem+json');
      expect(blocked.json()).toMatchObject({ status: 429 });
      // The right password from another address is refused too while the user name is blocked.
      expect((await login('viewer', 'viewer-pass', '198.51.100.2')).statusCode).toBe(429);
      const messages = server.services.logs.backlog().map((entry) => JSON.stringify(entry));
      expect(messages.join('\n')).toMatch(/Login attempts for the user name viewer are blocked/);
    });

    it('counts per address: guessing many user names from one address is blocked', async () => {
      for (let i = 0; i < 5; i += 1) await login(`nobody-${i}`, 'x', '198.51.100.9');
      expect((await login('Default', 'first-run-pass', '198.51.100.9')).statusCode).toBe(429);
      expect((await login('Default', 'first-run-pass', '198.51.100.10')).statusCode).toBe(200);
    });

    it('forgets the failures after a successful login', async () => {
      for (let i = 0; i < 4; i += 1) expect((await login('Default', 'nope', '198.51.100.20')).statusCode).toBe(401);
      expect((await login('Default', 'first-run-pass', '198.51.100.20')).statusCode).toBe(200);
      for (let i = 0; i < 4; i += 1) expect((await login('Default', 'nope', '198.51.100.20')).statusCode).toBe(401);
      expect((await login('Default', 'first-run-pass', '198.51.100.20')).statusCode).toBe(200);
    });

    it('trusts X-Forwarded-For only from a configured proxy', async () => {
      // Through the trusted proxy each forwarded client is counted on its own.
      for (let i = 0; i < 5; i += 1) await login(`ghost-${i}`, 'x', '127.0.0.2', { 'x-forwarded-for': '203.0.113.50' });
      expect((await login('Default', 'first-run-pass', '127.0.0.2', { 'x-forwarded-for': '203.0.113.50' })).statusCode).toBe(429);
      expect((await login('Default', 'first-run-pass', '127.0.0.2', { 'x-forwarded-for': '203.0.113.51' })).statusCode).toBe(200);
      // From anyone else the header is ignored: the peer's address is what counts.
      for (let i = 0; i < 5; i += 1) await login(`phantom-${i}`, 'x', '198.51.100.30', { 'x-forwarded-for': `203.0.113.${60 + i}` });
      expect((await login('Default', 'first-run-pass', '198.51.100.30', { 'x-forwarded-for': '203.0.113.99' })).statusCode).toBe(429);
    });
  });

  describe('cross-origin requests', () => {
    const preflight = (origin: string) =>
      server.app.inject({
        method: 'OPTIONS',
        url: '/api/v3/User/Current',
        headers: { origin, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'apikey' },
      });

    it('gives a foreign origin no CORS grant and refuses its state-changing requests', async () => {
      const pre = await preflight('https://evil.example');
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const read = await server.app.inject({
        method: 'GET',
        url: '/api/v3/User/Current',
        headers: { origin: 'https://evil.example', apikey: userKey },
      });
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      const write = await server.app.inject({
        method: 'POST',
        url: '/api/auth',
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
        payload: JSON.stringify({ user: 'Default', pass: 'first-run-pass', device: 'csrf' }),
      });
      expect(write.statusCode).toBe(403);
    });

    it('grants a listed origin, never with a wildcard', async () => {
      const pre = await preflight('https://ui.example');
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('https://ui.example');
      expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('apikey');
      const read = await server.app.inject({
        method: 'GET',
        url: '/api/v3/User/Current',
        headers: { origin: 'https://ui.example', apikey: userKey },
      });
      expect(read.statusCode).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBe('https://ui.example');
      expect(read.headers.vary).toMatch(/Origin/i);
    });

    it('lets the server’s own origin and same-origin fetches through', async () => {
      const body = JSON.stringify({ user: 'Default', pass: 'first-run-pass', device: 'same-origin' });
      const own = await server.app.inject({
        method: 'POST',
        url: '/api/auth',
        remoteAddress: '198.51.100.77',
        headers: { origin: 'http://shoko.local:8111', host: 'shoko.local:8111', 'content-type': 'application/json' },
        payload: body,
      });
      expect(own.statusCode).toBe(200);
      // Behind a proxy that rewrites Host the browser's Sec-Fetch-Site still says same-origin.
      const proxied = await server.app.inject({
        method: 'POST',
        url: '/api/auth',
        remoteAddress: '198.51.100.78',
        headers: {
          origin: 'https://shoko.example',
          host: '127.0.0.1:8111',
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
        },
        payload: body,
      });
      expect(proxied.statusCode).toBe(200);
      const crossSite = await server.app.inject({
        method: 'POST',
        url: '/api/auth',
        remoteAddress: '198.51.100.79',
        headers: {
          origin: 'http://127.0.0.1:8111',
          host: '127.0.0.1:8111',
          'sec-fetch-site': 'cross-site',
          'content-type': 'application/json',
        },
        payload: body,
      });
      expect(crossSite.statusCode).toBe(403);
    });
  });

  describe('security headers', () => {
    it('sends CSP, frame denial, nosniff and a referrer policy on the API and the console, HSTS only over HTTPS', async () => {
      for (const url of ['/api/v3/Init/Version', '/webui', '/api/v3/User/Current']) {
        const res = await server.app.inject({ method: 'GET', url, headers: { apikey: userKey } });
        expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
        expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
        expect(res.headers['x-frame-options'], url).toBe('DENY');
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['referrer-policy'], url).toBe('same-origin');
        expect(res.headers['strict-transport-security'], url).toBeUndefined();
      }
      const forged = await server.app.inject({ method: 'GET', url: '/api/v3/Init/Version', headers: { 'x-forwarded-proto': 'https' } });
      expect(forged.headers['strict-transport-security']).toBeUndefined();
      const proxied = await server.app.inject({
        method: 'GET',
        url: '/api/v3/Init/Version',
        remoteAddress: '127.0.0.2',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
    });
  });

  describe('body sizes', () => {
    const big = JSON.stringify({ Username: 'x'.repeat(2 * 1024 * 1024) });
    it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a 2 MB JSON body on %s with 413 and a problem body', async (method) => {
      const url = { POST: '/api/v3/Filter', PUT: '/api/v3/Filter/1', PATCH: '/api/v3/Settings', DELETE: '/api/auth' }[method]!;
      const res = await server.app.inject({
        method: method as 'POST',
        url,
        headers: { apikey: adminKey, 'content-type': 'application/json' },
        payload: big,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(413);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 413 });
    });

    it('still takes an avatar of a few megabytes', async () => {
      const avatar = `data:image/png;base64,${Buffer.alloc(1_500_000, 1).toString('base64')}`;
      const res = await server.app.inject({
        method: 'PUT',
        url: '/api/v3/User/Current',
        headers: { apikey: userKey, 'content-type': 'application/json' },
        payload: JSON.stringify({ Username: 'viewer', Avatar: avatar }),
      });
      expect(res.statusCode).not.toBe(413);
    });
  });

  describe('system folders', () => {
    const addFolder = (folder: string) =>
      server.request({
        method: 'POST',
        url: '/api/v3/ImportFolder',
        key: adminKey,
        body: { Name: 'bad', Path: folder, DropFolderType: 'None', WatchForNewFiles: false },
      });

    // Each that exists on this machine (a container may lack /boot); the listed ones every Linux has are always checked.
    const systemFolders = ['/', '/etc', '/proc/self', '/sys', '/dev', '/boot', '/run', '/root', '/usr', '/usr/share', '/var/lib'];
    it.each(systemFolders.filter((folder) => fs.existsSync(folder)))(
      'refuses %s as an import folder with a 400 naming Path and why',
      async (folder) => {
        const res = await addFolder(folder);
        expect(res.statusCode, folder).toBe(400);
        expect(res.json().errors.Path[0]).toMatch(/system folder|root folder/);
      },
    );
    it('checks the system folders every Linux has', () => {
      expect(systemFolders.filter((folder) => fs.existsSync(folder))).toEqual(
        expect.arrayContaining(['/', '/etc', '/sys', '/dev', '/usr']),
      );
    });

    it('refuses the data folder, a folder inside it and a folder holding it, with a 400 naming Path and why', async () => {
      const inside = path.join(server.home, 'library');
      fs.mkdirSync(path.join(inside, 'Show'), { recursive: true });
      for (const folder of [server.home, inside, path.join(inside, 'Show'), path.dirname(server.home)]) {
        const res = await addFolder(folder);
        expect(res.statusCode, folder).toBe(400);
        expect(res.json().errors.Path[0], folder).toMatch(/the server's own data folder/);
      }
    });

    it('refuses a link that leads into a system folder or the data folder, judged by where it leads', async () => {
      const links = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-edge-links-'));
      try {
        fs.symlinkSync('/usr', path.join(links, 'programs'));
        fs.symlinkSync(server.home, path.join(links, 'data'));
        const programs = await addFolder(path.join(links, 'programs'));
        expect(programs.statusCode).toBe(400);
        expect(programs.json().errors.Path[0]).toMatch(/inside the system folder \/usr/);
        const data = await addFolder(path.join(links, 'data'));
        expect(data.statusCode).toBe(400);
        expect(data.json().errors.Path[0]).toMatch(/the server's own data folder/);
      } finally {
        fs.rmSync(links, { recursive: true, force: true });
      }
    });

    it('lets the folder browser walk from / to media, but not into system folders', async () => {
      const root = await server.request({ method: 'GET', url: '/api/v3/Folder?path=/', key: adminKey });
      expect(root.statusCode).toBe(200);
      const names = (root.json() as Array<{ Path: string }>).map((f) => f.Path);
      expect(names).toContain('/tmp');
      expect(names).not.toContain('/proc');
      expect(names).not.toContain('/etc');
      const etc = await server.request({ method: 'GET', url: '/api/v3/Folder?path=/etc', key: adminKey });
      expect(etc.statusCode).toBe(400);
      const ok = await server.request({ method: 'GET', url: `/api/v3/Folder?path=${encodeURIComponent(os.tmpdir())}`, key: adminKey });
      expect(ok.statusCode).toBe(200);
      const added = await server.request({
        method: 'POST',
        url: '/api/v3/ImportFolder',
        key: adminKey,
        body: { Name: 'media', Path: media, DropFolderType: 'None', WatchForNewFiles: false },
      });
      expect(added.statusCode).toBe(200);
    });
  });

  it('keeps RemoveMissingFiles to admins', async () => {
    for (const url of ['/api/v3/Action/RemoveMissingFiles', '/api/v3/Action/RemoveMissingFiles/false']) {
      expect((await server.request({ method: 'GET', url, key: userKey })).statusCode, url).toBe(403);
    }
    expect((await server.request({ method: 'GET', url: '/api/v3/Action/RemoveMissingFiles/false', key: adminKey })).statusCode).toBe(200);
  });
});
