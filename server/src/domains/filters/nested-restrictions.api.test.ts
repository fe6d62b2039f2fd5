import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * Tag restrictions in a nested collection: a group is hidden from a viewer when a series anywhere below it carries a
 * hidden tag. "Paper Comets" (tag 8, hidden from the viewer) sits in a sub-group of "Quiet Harbor"'s group.
 */
describe('tag restrictions in a nested collection', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  const group: Record<string, number> = {};

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    const viewer = await createUser(server, key, 'viewer', 'viewer pass');
    viewerKey = await login(server, 'viewer', 'viewer pass');
    const db = server.services.db.kysely;
    await db.updateTable('users').set({ restricted_tags: '[8]' }).where('id', '=', viewer.id).execute();
    const written = await insertSeries(db, [
      { animeId: 601, title: 'Lantern Road', tags: [{ id: 7, name: 'travel' }], episodes: [{ id: 6001, file: true }] },
      { animeId: 602, title: 'Paper Comets', tags: [{ id: 8, name: 'space' }], episodes: [{ id: 6101, file: true }] },
      { animeId: 603, title: 'Quiet Harbor', tags: [{ id: 7, name: 'travel' }], episodes: [{ id: 6201, file: true }] },
    ]);
    for (const [animeId, name] of [
      [601, 'Lantern Road'],
      [602, 'Paper Comets'],
      [603, 'Quiet Harbor'],
    ] as const) {
      const row = await db
        .selectFrom('series')
        .select('group_id')
        .where('id', '=', written.get(animeId)!.seriesId)
        .executeTakeFirstOrThrow();
      group[name] = row.group_id!;
    }
    const moved = await server.request({
      method: 'PATCH',
      url: `/api/v3/Group/${group['Paper Comets']}`,
      key,
      body: [{ op: 'replace', path: 'ParentGroupID', value: group['Quiet Harbor'] }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  afterAll(async () => {
    await server?.close();
  });

  const topLevel = async (apiKey: string) => {
    const res = await server.request({ method: 'POST', url: '/api/v3/Filter/Preview/Group?pageSize=0', key: apiKey, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { List: Array<{ Name: string }> }).List.map((g) => g.Name).sort();
  };

  it('hides a group whose sub-group holds a restricted series, and counts filters without it', async () => {
    expect(await topLevel(key)).toEqual(['Lantern Road', 'Quiet Harbor']);
    expect(await topLevel(viewerKey)).toEqual(['Lantern Road']);
    const travel = { Expression: { Type: 'HasTag', Parameter: 'travel' } };
    const matching = async (apiKey: string) =>
      (
        (await server.request({ method: 'POST', url: '/api/v3/Filter/Preview/Group?pageSize=0', key: apiKey, body: travel })).json() as {
          List: Array<{ Name: string }>;
        }
      ).List.map((g) => g.Name);
    expect((await matching(key)).sort()).toEqual(['Lantern Road', 'Quiet Harbor']);
    expect(await matching(viewerKey)).toEqual(['Lantern Road']);
  });
});
