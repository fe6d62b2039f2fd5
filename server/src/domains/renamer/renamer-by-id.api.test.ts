import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, patchSettings, type TestServer } from '../../test/harness.js';

describe('GET Renamer/{renamerID}', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'renamer-viewer', 'pw')).key;
  });
  afterAll(() => server.close());

  it('answers the built-in renamer to any user, and 404 text for an unknown one', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/Renamer/WebAOM', key: userKey });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (await server.request({ method: 'GET', url: '/api/v3/Renamer', key: userKey })).json();
    expect(res.json()).toEqual(listed.find((r: { RenamerID: string }) => r.RenamerID === 'WebAOM'));
    expect(res.json()).toMatchObject({ RenamerID: 'WebAOM', Name: 'WebAOM Renamer', Enabled: true });
    const missing = await server.request({ method: 'GET', url: '/api/v3/Renamer/NoSuchRenamer', key: userKey });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('Renamer not found');
    expect((await server.request({ method: 'GET', url: '/api/v3/Renamer/WebAOM' })).statusCode).toBe(401);
    // The literal Config route still wins over the parameter.
    expect(Array.isArray((await server.request({ method: 'GET', url: '/api/v3/Renamer/Config', key: userKey })).json())).toBe(true);
  });

  it('answers 404 for a disabled renamer', async () => {
    await patchSettings(server, adminKey, [{ op: 'add', path: '/Plugins/Renamer/EnabledRenamers/WebAOM', value: false }]);
    const res = await server.request({ method: 'GET', url: '/api/v3/Renamer/WebAOM', key: userKey });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('Renamer not found');
  });
});
