import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';

/** C# clients (Shokofin, Shoko Relay's .NET cousins) format booleans as `True`/`False` and keys in any case. */
describe('query strings as ASP.NET binds them', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
  });
  afterAll(() => server.close());

  it('accepts True/False and any key casing', async () => {
    const lower = await server.request({ method: 'GET', url: '/api/v3/Filter?includeEmpty=true&showHidden=true&pageSize=0', key });
    expect(lower.statusCode).toBe(200);
    for (const query of ['includeEmpty=True&showHidden=True', 'IncludeEmpty=TRUE&ShowHidden=True', 'includeempty=True&SHOWHIDDEN=true']) {
      const res = await server.request({ method: 'GET', url: `/api/v3/Filter?${query}&PageSize=0`, key });
      expect(res.statusCode, query).toBe(200);
      expect(res.json(), query).toEqual(lower.json());
    }
    const hidden = await server.request({ method: 'GET', url: '/api/v3/Filter?includeEmpty=True&showHidden=False&pageSize=0', key });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json().Total).toBeLessThanOrEqual(lower.json().Total);
  });

  it('still refuses a word that is not a boolean, naming the field', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/Filter?showHidden=Yes', key });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('showHidden');
  });

  it('binds route segments the same way (Watched/True)', async () => {
    // An unknown file: a bound segment gets as far as the lookup (404), an unbindable one is refused first (400).
    const bound = await server.request({ method: 'POST', url: '/api/v3/File/999999/Watched/True', key });
    expect(bound.statusCode).toBe(404);
    const refused = await server.request({ method: 'POST', url: '/api/v3/File/999999/Watched/Yes', key });
    expect(refused.statusCode).toBe(400);
  });
});
