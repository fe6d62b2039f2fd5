import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';

/**
 * A first run waits for its wizard (which may import a whole Shoko collection) before the server starts: the routes'
 * schemas compile while it waits, not once it has started, where they shared the CPU with the first visits.
 */
describe('route schemas on a first run', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ warmRoutes: true });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('are prepared before the server starts', async () => {
    const prepared = () => server.services.logs.backlog().find((e) => /^Prepared \d+ request and answer schemas/.test(e.Message));
    while (!prepared()) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.services.settings.current.FirstRun).toBe(true);
    expect(server.services.state.isStarted).toBe(false);
    expect(Number(/^Prepared (\d+)/.exec(prepared()!.Message)![1])).toBeGreaterThan(100);
  }, 60_000);
});
