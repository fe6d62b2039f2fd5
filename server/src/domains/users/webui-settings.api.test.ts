import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, patchSettings, type TestServer } from '../../test/harness.js';

/** Issue 44: an account that may not change the server's settings keeps its own console settings. */
describe('GET|PUT User/Current/WebUISettings', () => {
  let server: TestServer;
  let adminKey: string;
  let dora: { id: number; key: string };
  let emil: { id: number; key: string };
  const serverWebUI = JSON.stringify({ settingsRevision: 10, theme: 'theme-shoko-gray', collection: { view: 'poster' } });

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    await patchSettings(server, adminKey, [{ op: 'replace', path: '/WebUI_Settings', value: serverWebUI }]);
    dora = await createUser(server, adminKey, 'dora', 'pw-dora');
    emil = await createUser(server, adminKey, 'emil', 'pw-emil');
  });
  afterAll(() => server.close());

  const read = (key: string) => server.request({ method: 'GET', url: '/api/v3/User/Current/WebUISettings', key });
  const save = (key: string, body: unknown) => server.request({ method: 'PUT', url: '/api/v3/User/Current/WebUISettings', key, body });
  const globalWebUI = async () => (await server.request({ method: 'GET', url: '/api/v3/Settings', key: adminKey })).json().WebUI_Settings;

  it("starts an account from the server's console settings", async () => {
    const res = await read(dora.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ WebUI_Settings: serverWebUI, IsOwn: false });
    expect(res.body).not.toContain('secret');
  });

  it('saves a non-admin’s own settings and reads them back; others and the server settings are untouched', async () => {
    const own = JSON.stringify({ settingsRevision: 10, collection: { view: 'list' }, dashboard: { hideShokoNews: true } });
    const saved = await save(dora.key, { WebUI_Settings: own });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ WebUI_Settings: own, IsOwn: true });
    expect((await read(dora.key)).json()).toEqual({ WebUI_Settings: own, IsOwn: true });

    expect((await read(emil.key)).json()).toEqual({ WebUI_Settings: serverWebUI, IsOwn: false });
    expect(await globalWebUI()).toBe(serverWebUI);

    const again = JSON.stringify({ collection: { view: 'poster' } });
    expect((await save(dora.key, { WebUI_Settings: again })).statusCode).toBe(200);
    expect((await read(dora.key)).json().WebUI_Settings).toBe(again);
    expect((await read(emil.key)).json().IsOwn).toBe(false);
  });

  it('keeps an admin’s own copy apart from the global WebUI_Settings', async () => {
    const own = JSON.stringify({ theme: 'theme-admin-own' });
    expect((await save(adminKey, { WebUI_Settings: own })).statusCode).toBe(200);
    expect(await globalWebUI()).toBe(serverWebUI);
    expect((await read(adminKey)).json()).toEqual({ WebUI_Settings: own, IsOwn: true });
  });

  it('refuses what is not the JSON text of an object of at most 64 kB, naming the field, and keeps what was saved', async () => {
    const before = (await read(emil.key)).json();
    const bodies: unknown[] = [
      { WebUI_Settings: 'not json' },
      { WebUI_Settings: '[1,2]' },
      { WebUI_Settings: 'null' },
      { WebUI_Settings: '"text"' },
      { WebUI_Settings: { collection: { view: 'list' } } },
      { WebUI_Settings: JSON.stringify({ pad: 'x'.repeat(64 * 1024) }) },
      {},
    ];
    for (const body of bodies) {
      const res = await save(emil.key, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['WebUI_Settings']);
    }
    expect((await read(emil.key)).json()).toEqual(before);
  });

  it('needs a key, and goes with the account when it is deleted', async () => {
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current/WebUISettings' })).statusCode).toBe(401);
    const fay = await createUser(server, adminKey, 'fay', 'pw-fay');
    expect((await save(fay.key, { WebUI_Settings: '{"theme":"theme-fay"}' })).statusCode).toBe(200);
    expect((await server.request({ method: 'DELETE', url: `/api/v3/User/${fay.id}`, key: adminKey })).statusCode).toBe(200);
    const rows = await server.services.db.kysely.selectFrom('user_webui_settings').select('user_id').execute();
    expect(rows.map((row) => row.user_id)).not.toContain(fay.id);
  });
});
