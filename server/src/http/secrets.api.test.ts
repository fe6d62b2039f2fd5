import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, patchSettings, type TestServer } from '../test/harness.js';

/** Values that must never leave the server: in no response body of any GET route and in no log line. */
const SECRETS = {
  adminPassword: 'first-run-pass',
  userPassword: 'Plain-User-Pass-7731',
  anidbPassword: 'AniDB-Secret-9931',
  avdumpKey: 'AVDump-Key-5520',
  tmdbKey: 'tmdb0123456789abcdef0123456789abcd',
};

const concreteUrl = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

describe('secrets stay secret', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    await patchSettings(server, adminKey, [
      { op: 'replace', path: '/AniDb/Password', value: SECRETS.anidbPassword },
      { op: 'replace', path: '/AniDb/AVDumpKey', value: SECRETS.avdumpKey },
      { op: 'replace', path: '/TMDB/UserApiKey', value: SECRETS.tmdbKey },
    ]);
    await createUser(server, adminKey, 'plain', SECRETS.userPassword);
    userKey = await login(server, 'plain', SECRETS.userPassword);
  });
  afterAll(() => server.close());

  it('answers every GET route without a password, an API key of another session or a service key in the body', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const route of server.routes.filter((r) => r.method === 'GET' && !r.url.startsWith('/signalr'))) {
      for (const key of [adminKey, userKey]) {
        const res = await server.request({ method: 'GET', url: concreteUrl(route.url), key });
        checked += 1;
        for (const [name, secret] of Object.entries(SECRETS)) if (res.body.includes(secret)) leaks.push(`${route.url} shows ${name}`);
        // A response may carry the caller's own key only where it was just issued (POST /api/auth), never in a GET.
        const otherKey = key === adminKey ? userKey : adminKey;
        if (res.body.includes(otherKey)) leaks.push(`${route.url} shows another user's API key`);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(leaks).toEqual([]);
  });

  it('writes none of them to the log', async () => {
    const lines = server.services.logs
      .backlog()
      .map((entry) => entry.Message)
      .join('\n');
    const logDir = path.join(server.home, 'logs');
    const files = fs.existsSync(logDir)
      ? fs
          .readdirSync(logDir)
          .map((name) => fs.readFileSync(path.join(logDir, name), 'utf8'))
          .join('\n')
      : '';
    expect(lines.length + files.length).toBeGreaterThan(0);
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(lines.includes(secret), `${name} in the live log`).toBe(false);
      expect(files.includes(secret), `${name} in a log file`).toBe(false);
    }
    for (const key of [adminKey, userKey]) expect(lines.includes(key) || files.includes(key)).toBe(false);
  });
});
