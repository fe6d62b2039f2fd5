import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithCollection } from '../test/generated-collection.js';
import { createUser, type TestServer } from '../test/harness.js';
import { foldUserEpisodeCounts } from './user-episode-counts.js';

/**
 * The maintained counts of each user's listed episodes per watched/voted state (migration 0047,
 * db/user-episode-counts.ts) and the Totals of `GET Episode` read from them, against a fresh count from the base tables
 * done here in plain code, after watching, unwatching, voting, hiding, file and link changes, AniDB episodes and
 * episodes deleted, and a user deleted.
 */
describe('maintained user episode counts', () => {
  let server: TestServer;
  let admin: string;
  let other: { id: number; key: string };

  beforeAll(async () => {
    ({ server, admin, other } = await serverWithCollection({ series: 10, files: 90, seed: 47 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const combo = (watched: unknown, voted: unknown) => `${watched ? 1 : 0}${voted ? 1 : 0}`;

  /** Per user, how many listed episodes (AniDB data, a local file, not hidden) are watched and/or voted, by combination. */
  async function expected(): Promise<Record<string, Record<string, number>>> {
    const [users, states, episodes, anidb, links, files] = await Promise.all([
      db().selectFrom('users').select('id').execute(),
      db().selectFrom('user_episode_states').selectAll().execute(),
      db().selectFrom('episodes').select(['id', 'anidb_episode_id', 'is_hidden']).execute(),
      db().selectFrom('anidb_episodes').select('id').execute(),
      db().selectFrom('file_episode_links').select(['ed2k', 'size', 'episode_id']).execute(),
      db().selectFrom('files').select(['ed2k', 'size']).execute(),
    ]);
    const contents = new Set(files.map((f) => `${f.ed2k}/${Number(f.size)}`));
    const withFile = new Set(links.filter((l) => contents.has(`${l.ed2k}/${Number(l.size)}`)).map((l) => l.episode_id));
    const anidbIds = new Set(anidb.map((a) => a.id));
    const listed = new Set(
      episodes.filter((e) => anidbIds.has(e.anidb_episode_id) && withFile.has(e.anidb_episode_id) && e.is_hidden !== 1).map((e) => e.id),
    );
    const result: Record<string, Record<string, number>> = Object.fromEntries(users.map((u) => [u.id, {}]));
    for (const s of states) {
      if (!listed.has(s.episode_id) || (s.watched_at === null && s.rating === null)) continue;
      const counts = result[s.user_id]!;
      const key = combo(s.watched_at, s.rating !== null);
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return result;
  }

  async function maintained(): Promise<Record<string, Record<string, number>>> {
    const rows = await db()
      .selectFrom('user_episode_counts')
      .select(['user_id', 'is_watched', 'is_voted'])
      .select((eb) => eb.fn.sum<number | string>('episodes').as('episodes'))
      .groupBy(['user_id', 'is_watched', 'is_voted'])
      .execute();
    const users = await db().selectFrom('users').select('id').execute();
    const result: Record<string, Record<string, number>> = Object.fromEntries(users.map((u) => [u.id, {}]));
    for (const row of rows) {
      if (Number(row.episodes) === 0) continue;
      // Rows of a user who is gone show up as an unknown key.
      result[row.user_id] ??= {};
      result[row.user_id]![combo(Number(row.is_watched), Number(row.is_voted))] = Number(row.episodes);
    }
    return result;
  }

  /** The Totals of the lists read from the maintained rows, for the admin and the other user. */
  const FILTERS: Array<[query: string, combos: string[]]> = [
    ['includeWatched=only', ['10', '11']],
    ['includeVoted=only', ['01', '11']],
    ['includeWatched=only&includeVoted=only', ['11']],
    ['includeWatched=only&includeVoted=false', ['10']],
    ['includeWatched=false&includeVoted=only', ['01']],
  ];
  async function expectConsistent() {
    const want = await expected();
    expect(await maintained()).toEqual(want);
    for (const [userId, key] of [
      [1, admin],
      [other.id, other.key],
    ] as const)
      for (const [query, combos] of FILTERS) {
        const res = await server.request({ method: 'GET', url: `/api/v3/Episode?pageSize=1&${query}`, key });
        expect(res.statusCode, res.body).toBe(200);
        const total = combos.reduce((sum, c) => sum + (want[userId]![c] ?? 0), 0);
        expect({ userId, query, total: res.json().Total }).toEqual({ userId, query, total });
      }
    return want;
  }

  const request = async (method: 'POST' | 'DELETE', url: string, body?: unknown, key = admin) => {
    const res = await server.request({ method, url: `/api/v3/${url}`, key, body });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  /** Listed episodes (the first ones by id), and ones without a file. */
  const episodes = async () => {
    const rows = await db()
      .selectFrom('episodes')
      .select(['id', 'anidb_episode_id', 'series_id', 'local_file_count'])
      .where('sort_type_rank', 'is not', null)
      .where('is_hidden', '=', 0)
      .orderBy('id')
      .execute();
    return { listed: rows.filter((e) => e.local_file_count > 0), fileless: rows.filter((e) => e.local_file_count === 0) };
  };

  it('match the base tables after watch, vote, hide, file, link, episode and user changes', async () => {
    const first = await expectConsistent();
    expect(Object.values(first[1]!).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    const { listed, fileless } = await episodes();
    const unwatched = listed.filter((e) => e.id % 3 === 0);

    // Watch and unwatch, one at a time, for both users; votes with and without a watch, and one taken back.
    for (const e of unwatched.slice(0, 4)) await request('POST', `Episode/${e.id}/Watched/true`);
    await request('POST', `Episode/${unwatched[0]!.id}/Watched/true`, undefined, other.key);
    await request('POST', `Episode/${listed[1]!.id}/Watched/false`);
    await request('POST', `Episode/${listed[2]!.id}/Vote`, { Value: 7, MaxValue: 10 });
    await request('POST', `Episode/${listed[3]!.id}/Vote`, { Value: 4, MaxValue: 10 }, other.key);
    await request('POST', `Episode/${unwatched[1]!.id}/Vote`, { Value: 9, MaxValue: 10 });
    await request('POST', `Episode/${fileless[0]!.id}/Watched/true`);
    await request('POST', `Episode/${fileless[0]!.id}/Vote`, { Value: 5, MaxValue: 10 });
    await expectConsistent();
    await request('POST', `Episode/${listed[2]!.id}/Vote`, { Value: -1, MaxValue: 10 });
    // A whole series at once: its watched and unwatched episodes.
    await request('POST', `Series/${listed[0]!.series_id}/Episode/Watched?value=true`);
    await request('POST', `Series/${listed[listed.length - 1]!.series_id}/Episode/Watched?value=false`, undefined, other.key);
    await expectConsistent();

    // Hidden and shown again; a voted episode stays hidden.
    await request('POST', `Episode/${unwatched[0]!.id}/SetHidden?value=true`);
    await request('POST', `Episode/${unwatched[1]!.id}/SetHidden?value=true`);
    await expectConsistent();
    await request('POST', `Episode/${unwatched[0]!.id}/SetHidden?value=false`);
    await expectConsistent();

    // Files: a watched episode loses its only link, another its files; a fileless watched one gets a link.
    const linkOf = async (anidbEpisodeId: number) =>
      db().selectFrom('file_episode_links').selectAll().where('episode_id', '=', anidbEpisodeId).execute();
    const watchedListed = unwatched[2]!;
    await db().deleteFrom('file_episode_links').where('episode_id', '=', watchedListed.anidb_episode_id).execute();
    const [someLink] = await linkOf(unwatched[3]!.anidb_episode_id);
    await db()
      .deleteFrom('file_locations')
      .where('file_id', 'in', db().selectFrom('files').select('id').where('ed2k', '=', someLink!.ed2k))
      .execute();
    await db().deleteFrom('files').where('ed2k', '=', someLink!.ed2k).execute();
    const [donor] = await linkOf(listed[5]!.anidb_episode_id);
    const { id: _id, ...copy } = donor!;
    await db()
      .insertInto('file_episode_links')
      .values({ ...copy, episode_id: fileless[0]!.anidb_episode_id })
      .execute();
    await expectConsistent();

    // AniDB data gone (never listed), an episode deleted with its states, a user deleted with theirs.
    await db().deleteFrom('anidb_episodes').where('id', '=', listed[6]!.anidb_episode_id).execute();
    await db().deleteFrom('episodes').where('id', '=', listed[0]!.id).execute();
    const third = await createUser(server, admin, 'third', 'third-pass');
    for (const e of (await episodes()).listed.slice(0, 3)) await request('POST', `Episode/${e.id}/Watched/true`, undefined, third.key);
    const before = await expectConsistent();
    expect(Object.values(before[third.id]!).reduce((a, b) => a + b, 0)).toBe(3);
    await request('DELETE', `User/${third.id}`);
    const after = await expectConsistent();
    expect(after[third.id]).toBeUndefined();

    // Folding keeps every sum; a reader folds once a user's rows pile up.
    const rows = async () =>
      Number(
        (
          await db()
            .selectFrom('user_episode_counts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const seriesId of new Set(listed.map((e) => e.series_id))) {
      await request('POST', `Series/${seriesId}/Episode/Watched?value=false`);
      await request('POST', `Series/${seriesId}/Episode/Watched?value=true`);
    }
    expect(await rows()).toBeGreaterThan(100);
    await expectConsistent();
    expect(await rows()).toBeLessThanOrEqual(8);
    await request('POST', `Series/${listed[listed.length - 8]!.series_id}/Episode/Watched?value=true`);
    await foldUserEpisodeCounts(db(), server.services.db.dialect);
    await expectConsistent();
  });
});
