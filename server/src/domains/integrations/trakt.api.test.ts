import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTrakt, type FakeTrakt } from '../../../../fakes/src/trakt.js';
import { completeFirstRunWithAniDB, createTestServer, createUser, setEnv, type TestServer } from '../../test/harness.js';
import { TraktClient } from './trakt.client.js';
import { NOT_CONFIGURED, TraktService, type TraktFlowState } from './trakt.service.js';

const CLIENT = { id: 'test-client-id', secret: 'test-secret' };

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Trakt device-code linking against the Trakt fake', () => {
  let server: TestServer;
  let trakt: FakeTrakt;
  let restoreEnv: () => void;
  let adminKey: string;
  let userKey: string;

  const api = (url: string, key = adminKey) => server.request({ method: 'GET', url, key });
  const stored = () => server.services.settings.current.TraktTv;
  const waitForFlow = (state: TraktFlowState) => until(() => server.services.integrations.trakt.state === state, `flow state ${state}`);
  const requestCode = async () => {
    const res = await api('/api/trakt/code');
    expect(res.statusCode).toBe(200);
    return res.json() as { usercode: string; url: string };
  };

  beforeAll(async () => {
    // Trakt's 5 s interval scaled down so the flow runs in milliseconds.
    trakt = await startFakeTrakt({ clientId: CLIENT.id, clientSecret: CLIENT.secret, interval: 0.02, expiresIn: 600 });
    restoreEnv = setEnv({ SHOKO_TRAKT_URL: trakt.url, SHOKO_TRAKT_CLIENT_ID: CLIENT.id, SHOKO_TRAKT_CLIENT_SECRET: CLIENT.secret });
    server = await createTestServer();
    adminKey = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterAll(async () => {
    await server.close();
    await trakt.close();
    restoreEnv();
  });

  it('is admin only', async () => {
    expect((await server.request({ method: 'GET', url: '/api/trakt/code' })).statusCode).toBe(401);
    expect((await api('/api/trakt/code', userKey)).statusCode).toBe(403);
    expect(trakt.devices).toHaveLength(0);
  });

  it('answers the user code and URL, then stores the tokens once the user approves', async () => {
    const code = await requestCode();
    expect(code).toEqual({ usercode: trakt.devices[0].userCode, url: `${trakt.url}/activate` });
    await until(() => trakt.devices[0].polls >= 2, 'a few polls while pending');
    expect(stored().TokenExpirationDate).toBe('');

    trakt.approve(code.usercode);
    await waitForFlow('linked');
    const issued = trakt.tokens[0];
    expect(stored()).toMatchObject({
      AuthToken: issued.accessToken,
      RefreshToken: issued.refreshToken,
      TokenExpirationDate: String(issued.createdAt + issued.expiresIn),
      // The flow leaves the user's Enabled choice alone.
      Enabled: false,
    });
    // Polling stopped at the 200: no 409 "already used" polls follow.
    const polls = trakt.devices[0].polls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(trakt.devices[0].polls).toBe(polls);
  });

  it('never shows the tokens in Settings or the log', async () => {
    const { AuthToken, RefreshToken } = stored();
    const res = await api('/api/v3/Settings');
    expect(res.json().TraktTv).toMatchObject({ AuthToken: '', RefreshToken: '', TokenExpirationDate: stored().TokenExpirationDate });
    expect(res.body).not.toContain(AuthToken);
    const log = JSON.stringify(server.services.logs.backlog());
    expect(log).toContain('Trakt account linked');
    expect(log).not.toContain(AuthToken);
    expect(log).not.toContain(RefreshToken);
    // The settings file holds them for the server's own use.
    expect(fs.readFileSync(path.join(server.home, 'settings-server.json'), 'utf8')).toContain(AuthToken);
  });

  it('keeps the tokens when a settings save leaves them out, and refreshes them before they expire', async () => {
    const before = stored();
    const res = await server.request({
      method: 'PATCH',
      url: '/api/v3/Settings',
      key: adminKey,
      body: [{ op: 'replace', path: '/TraktTv/Enabled', value: true }],
    });
    expect(res.statusCode).toBe(200);
    expect(stored()).toMatchObject({ Enabled: true, AuthToken: before.AuthToken, RefreshToken: before.RefreshToken });

    expect(await server.services.integrations.trakt.checkToken()).toBe('valid');
    // Five hours left: inside the six-hour window.
    const soon = String(Math.floor(Date.now() / 1000) + 5 * 3600);
    await server.services.settings.update((s) => void (s.TraktTv.TokenExpirationDate = soon));
    expect(await server.services.integrations.trakt.checkToken()).toBe('refreshed');
    const rotated = trakt.tokens.at(-1)!;
    expect(rotated.accessToken).not.toBe(before.AuthToken);
    expect(stored()).toMatchObject({
      AuthToken: rotated.accessToken,
      RefreshToken: rotated.refreshToken,
      TokenExpirationDate: String(rotated.createdAt + rotated.expiresIn),
    });
  });

  it('unlinks when Trakt refuses the refresh token', async () => {
    trakt.rejectRefreshes(true);
    try {
      expect(await server.services.integrations.trakt.checkToken(true)).toBe('unlinked');
    } finally {
      trakt.rejectRefreshes(false);
    }
    expect(stored()).toMatchObject({ AuthToken: '', RefreshToken: '', TokenExpirationDate: '' });
    expect(await server.services.integrations.trakt.checkToken(true)).toBe('none');
  });

  it('stores nothing when the user denies access or the code expires', async () => {
    const denied = await requestCode();
    trakt.deny(denied.usercode);
    await waitForFlow('denied');
    expect(stored().AuthToken).toBe('');

    const expired = await requestCode();
    trakt.expire(expired.usercode);
    await waitForFlow('expired');
    expect(stored()).toMatchObject({ AuthToken: '', TokenExpirationDate: '' });
  });

  it('stops polling at the code deadline even if Trakt keeps saying pending', async () => {
    const shortLived = await startFakeTrakt({ clientId: CLIENT.id, clientSecret: CLIENT.secret, interval: 0.02, expiresIn: 0.2 });
    // Trakt's own expiry answer (410) is turned back into "pending" so only our deadline can end the flow.
    const client = new TraktClient({ baseUrl: shortLived.url, clientId: CLIENT.id, clientSecret: CLIENT.secret });
    const poll = client.pollDeviceToken.bind(client);
    client.pollDeviceToken = async (code) => {
      const result = await poll(code);
      return result.kind === 'expired' ? { kind: 'pending' } : result;
    };
    const service = new TraktService({
      client,
      settings: server.services.settings,
      bus: server.services.bus,
      logger: server.services.logs.logger,
    });
    try {
      await service.requestCode();
      await until(() => service.state !== 'polling', 'the deadline');
      expect(service.state).toBe('expired');
      const polls = shortLived.devices[0].polls;
      expect(polls).toBeGreaterThan(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(shortLived.devices[0].polls).toBe(polls);
      expect(stored().AuthToken).toBe('');
    } finally {
      service.stop();
      await shortLived.close();
    }
  });

  it('a new code replaces the one being polled; Unlink through Settings drops the stored tokens', async () => {
    const first = await requestCode();
    const second = await requestCode();
    trakt.approve(first.usercode);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stored().AuthToken).toBe('');
    trakt.approve(second.usercode);
    await waitForFlow('linked');
    expect(stored().AuthToken).toBe(trakt.tokens.at(-1)!.accessToken);

    // What the console's Unlink sends: the tokens are write-only, so only the visible fields change.
    const res = await server.request({
      method: 'PATCH',
      url: '/api/v3/Settings',
      key: adminKey,
      body: [
        { op: 'replace', path: '/TraktTv/Enabled', value: false },
        { op: 'replace', path: '/TraktTv/TokenExpirationDate', value: '' },
        { op: 'replace', path: '/TraktTv/SyncFrequency', value: '1' },
      ],
    });
    expect(res.statusCode).toBe(200);
    await until(() => stored().AuthToken === '', 'the tokens to be dropped');
    expect(stored()).toMatchObject({ Enabled: false, AuthToken: '', RefreshToken: '', TokenExpirationDate: '', SyncFrequency: 1 });
  });

  it('answers 400 without Trakt application credentials, 500 when Trakt cannot be reached', async () => {
    const unconfigured = new TraktService({
      client: new TraktClient({ baseUrl: trakt.url }),
      settings: server.services.settings,
      bus: server.services.bus,
      logger: server.services.logs.logger,
    });
    await expect(unconfigured.requestCode()).rejects.toMatchObject({ status: 400, message: NOT_CONFIGURED });

    const closed = await startFakeTrakt();
    await closed.close();
    const service = new TraktService({
      client: new TraktClient({ baseUrl: closed.url, clientId: 'x', clientSecret: 'y' }),
      settings: server.services.settings,
      bus: server.services.bus,
      logger: server.services.logs.logger,
    });
    await expect(service.requestCode()).rejects.toMatchObject({ status: 500, kind: 'empty' });
    // Through the route: a client id the fake refuses.
    const refused = await startFakeTrakt({ clientId: 'another-app' });
    const restore = setEnv({ SHOKO_TRAKT_URL: refused.url });
    const other = await createTestServer();
    try {
      const key = await completeFirstRunWithAniDB(other, { username: 'tester', password: 'secret1' });
      const res = await other.request({ method: 'GET', url: '/api/trakt/code', key });
      expect([res.statusCode, res.body]).toEqual([500, '']);
    } finally {
      await other.close();
      await refused.close();
      restore();
    }
  });
});
