import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

/**
 * Key owners and tag restrictions are kept in memory between requests; every change to an account must still apply
 * to the very next request of that account, after the old answer was read and kept.
 */
describe('account changes apply to the next request', () => {
  let server: TestServer;
  let adminKey: string;
  let viewer: { id: number; key: string };
  let lockedSeries = 0;
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];

  beforeAll(async () => {
    const setup = await seriesTestServer([]);
    ({ server, api, viewer } = setup);
    adminKey = setup.key;
    const written = await insertSeries(server.services.db.kysely, [
      { animeId: 402, title: 'Locked Door', tags: [{ id: 77, name: 'ecchi' }] },
    ]);
    lockedSeries = written.get(402)!.seriesId;
  });
  afterAll(() => server.close());

  it('hides a series as soon as its tag is restricted, and shows it again when lifted', async () => {
    expect((await api('GET', `/api/v3/Series/${lockedSeries}`, undefined, viewer.key)).statusCode).toBe(200);
    const restrict = await api('PATCH', `/api/v3/User/${viewer.id}`, [{ op: 'replace', path: '/RestrictedTags', value: [77] }]);
    expect(restrict.statusCode, restrict.body).toBe(200);
    expect((await api('GET', `/api/v3/Series/${lockedSeries}`, undefined, viewer.key)).statusCode).not.toBe(200);
    await api('PATCH', `/api/v3/User/${viewer.id}`, [{ op: 'replace', path: '/RestrictedTags', value: [] }]);
    expect((await api('GET', `/api/v3/Series/${lockedSeries}`, undefined, viewer.key)).statusCode).toBe(200);
  });

  it('takes admin rights away on the next request', async () => {
    const second = await createUser(server, adminKey, 'second-admin', 'second-pass', true);
    expect((await api('GET', '/api/v3/Settings', undefined, second.key)).statusCode).toBe(200);
    const demote = await api('PATCH', `/api/v3/User/${second.id}`, [{ op: 'replace', path: '/IsAdmin', value: false }]);
    expect(demote.statusCode, demote.body).toBe(200);
    expect((await api('GET', '/api/v3/Settings', undefined, second.key)).statusCode).toBe(403);
  });

  it('refuses the keys of a deleted account and a revoked key on the next request', async () => {
    const gone = await createUser(server, adminKey, 'leaving', 'leaving-pass');
    expect((await api('GET', '/api/auth', undefined, gone.key)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/v3/User/${gone.id}`)).statusCode).toBe(200);
    expect((await api('GET', '/api/auth', undefined, gone.key)).statusCode).toBe(401);

    const key = await login(server, 'viewer', 'viewer-pass', 'phone');
    expect((await api('GET', '/api/auth', undefined, key)).statusCode).toBe(200);
    expect((await api('DELETE', '/api/auth', 'phone', key)).statusCode).toBe(200);
    expect((await api('GET', '/api/auth', undefined, key)).statusCode).toBe(401);
  });

  it('follows a renamed account', async () => {
    expect((await api('GET', '/api/v3/User/Current', undefined, viewer.key)).json()).toMatchObject({ Username: 'viewer' });
    await api('PATCH', `/api/v3/User/${viewer.id}`, [{ op: 'replace', path: '/Username', value: 'watcher' }]);
    expect((await api('GET', '/api/v3/User/Current', undefined, viewer.key)).json()).toMatchObject({ Username: 'watcher' });
  });
});
