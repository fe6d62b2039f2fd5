import { afterEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, login, type TestServer } from '../../test/harness.js';
import { NOT_RUNNING_MESSAGE } from '../../http/auth-hook.js';

describe('init API: first run, state transitions and lock-out', () => {
  const servers: TestServer[] = [];
  const fresh = async (restartOf?: TestServer) => {
    const server = await createTestServer({ restartOf });
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    while (servers.length) {
      const server = servers.pop()!;
      // A server that was restarted shares its data with the later one; only the last cleans up.
      await server.close({ keepData: servers.some((s) => s.home === server.home) });
    }
  });

  it('reports the Shoko API level and our own version', async () => {
    const server = await fresh();
    const res = await server.request({ method: 'GET', url: '/api/v3/Init/Version' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.Server.Version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const [a, b, c] = body.Server.Version.split('.').map(Number);
    expect(a * 10000 + b * 100 + c).toBeGreaterThanOrEqual(50303);
    expect(body.Product.Version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('walks Waiting → Starting → Started and locks the first-run endpoints afterwards', async () => {
    const server = await fresh();
    const status = async () => (await server.request({ method: 'GET', url: '/api/v3/Init/Status' })).json();
    expect(await status()).toMatchObject({ State: 'Waiting', StartupMessage: null, Uptime: null });

    // Before start: first-run endpoints work without a key; the rest answer 503 with Shoko's text.
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/DefaultUser' })).json()).toEqual({
      Username: 'Default',
      Password: '',
    });
    expect((await server.request({ method: 'GET', url: '/api/v3/Settings' })).statusCode).toBe(200);
    const early = await server.request({ method: 'POST', url: '/api/auth', body: { user: 'Default', pass: '', device: 'x' } });
    expect(early.statusCode).toBe(503);
    expect(early.body).toBe(NOT_RUNNING_MESSAGE);
    expect((await server.request({ method: 'GET', url: '/api/v3/User' })).statusCode).toBe(503);

    expect(
      (await server.request({ method: 'POST', url: '/api/v3/Init/DefaultUser', body: { Username: 'Admin', Password: 's3cret' } }))
        .statusCode,
    ).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/StartServer' })).statusCode).toBe(200);
    expect(['Starting', 'Started']).toContain((await status()).State);
    await server.services.init.waitForStartup();
    const started = await status();
    expect(started.State).toBe('Started');
    expect(started.Uptime).toMatch(/^\d{2}:\d{2}:\d{2}/);
    expect(server.services.settings.current.FirstRun).toBe(false);

    // After start: anonymous callers are strangers again.
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/DefaultUser' })).statusCode).toBe(401);
    expect(
      (await server.request({ method: 'POST', url: '/api/v3/Init/DefaultUser', body: { Username: 'x', Password: 'y' } })).statusCode,
    ).toBe(401);
    expect((await server.request({ method: 'GET', url: '/api/v3/Settings' })).statusCode).toBe(401);
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/StartServer' })).statusCode).toBe(401);

    const key = await login(server, 'admin', 's3cret');
    // Even the admin cannot use the first-run-only endpoints, and starting again is refused.
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/DefaultUser', key })).statusCode).toBe(403);
    const again = await server.request({ method: 'GET', url: '/api/v3/Init/StartServer', key });
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe('Already Running');
  });

  it('does not trust anonymous callers while a configured server restarts', async () => {
    const first = await fresh();
    await completeFirstRun(first);
    await first.close({ keepData: true });
    servers.splice(servers.indexOf(first), 1);

    const restarted = await fresh({ ...first });
    expect(restarted.services.settings.current.FirstRun).toBe(false);
    expect(restarted.services.state.current).toBe('Waiting');
    // Not started yet, but accounts exist: no first-run principal.
    expect((await restarted.request({ method: 'GET', url: '/api/v3/Settings' })).statusCode).toBe(401);
    expect((await restarted.request({ method: 'GET', url: '/api/v3/Init/DefaultUser' })).statusCode).toBe(401);
    expect((await restarted.request({ method: 'GET', url: '/api/v3/Init/StartServer' })).statusCode).toBe(401);
  });

  it('reports Failed with the reason when a start step fails, and stays locked', async () => {
    const server = await fresh();
    // With the database gone, creating the first account fails.
    await server.services.db.close();
    server.services.init.startServer();
    await server.services.init.waitForStartup();
    const status = (await server.request({ method: 'GET', url: '/api/v3/Init/Status' })).json();
    expect(status.State).toBe('Failed');
    expect(status.StartupMessage).toMatch(/^Startup Failed: /);
  });
});
