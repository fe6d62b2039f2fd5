import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillListKeys } from '../../db/migrations/0043_episode_list_keys.js';
import { serverWithCollection } from '../../test/generated-collection.js';
import type { TestServer } from '../../test/harness.js';
import { userLinkRow } from '../../test/seed-files.js';

/**
 * The episode list's maintained keys (migration 0043): each episode's local file count (its AniDB episode's links
 * joined to files on ED2K and size), type rank and number. After each kind of change to files, links, episodes and
 * AniDB episodes, through the API and straight in the tables, every row is compared with a fresh computation done
 * here in plain code, and so is the migration's fill.
 */
describe('maintained episode list keys', () => {
  let server: TestServer;
  let admin: string;
  const RANK = ['Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other'];

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 8, files: 60, seed: 11 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;

  async function fresh() {
    const [episodes, anidb, links, files] = await Promise.all([
      db().selectFrom('episodes').select(['id', 'anidb_episode_id']).orderBy('id').execute(),
      db().selectFrom('anidb_episodes').select(['id', 'type', 'number']).execute(),
      db().selectFrom('file_episode_links').select(['ed2k', 'size', 'episode_id']).execute(),
      db().selectFrom('files').select(['ed2k', 'size']).execute(),
    ]);
    const content = (r: { ed2k: string; size: number | string }) => `${r.ed2k}/${Number(r.size)}`;
    const copies = new Map<string, number>();
    for (const f of files) copies.set(content(f), (copies.get(content(f)) ?? 0) + 1);
    return episodes.map((e) => {
      const ae = anidb.find((a) => a.id === e.anidb_episode_id);
      const count = links.filter((l) => l.episode_id === e.anidb_episode_id).reduce((n, l) => n + (copies.get(content(l)) ?? 0), 0);
      return {
        id: e.id,
        local_file_count: count,
        sort_type_rank: ae ? (RANK.includes(ae.type) ? RANK.indexOf(ae.type) + 1 : 7) : null,
        sort_number: ae?.number ?? 0,
      };
    });
  }

  async function kept() {
    const { rows } = await sql<{ id: number; local_file_count: number; sort_type_rank: number | null; sort_number: number }>`
      SELECT id, local_file_count, sort_type_rank, sort_number FROM episodes ORDER BY id`.execute(db());
    return rows;
  }

  async function expectFresh() {
    const want = await fresh();
    expect(want.length).toBeGreaterThan(0);
    expect(await kept()).toEqual(want);
    return want;
  }

  const request = async (method: string, url: string, body?: unknown) => {
    const res = await server.request({ method, url, key: admin, body });
    expect(res.statusCode, res.body).toBe(200);
  };

  const now = '2031-01-01T00:00:00.000Z';
  /** A file row of invented content (hashed unless `ed2k` is empty). */
  const addFile = async (ed2k: string, size: number) =>
    (
      await db()
        .insertInto('files')
        .values({ ed2k, size, crc32: '', md5: '', sha1: '', is_ignored: 0, is_variation: 0, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const link = (ed2k: string, size: number, animeId: number, episodeId: number) => userLinkRow({ ed2k, size }, animeId, episodeId);

  it('hold after the generated collection is stored', async () => {
    const start = await expectFresh();
    expect(start.some((e) => e.local_file_count > 0)).toBe(true);
    expect(start.some((e) => e.local_file_count === 0)).toBe(true);
  });

  it('follow files and links added, deleted, re-linked and re-hashed', async () => {
    const episodes = await db()
      .selectFrom('episodes as e')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .select(['e.id', 'e.anidb_episode_id', 's.anime_id'])
      .orderBy('e.id')
      .execute();
    const [a, b, c] = [episodes[0]!, episodes[1]!, episodes.at(-1)!];

    // A new file linked through the API to two episodes, then a second copy of its content (another file row).
    const first = await addFile('A1'.repeat(16), 5151);
    await request('POST', `/api/v3/File/${first}/Link`, { EpisodeIDs: [a.id, b.id] });
    await addFile('A1'.repeat(16), 5151);
    // Same hash, other size: other content, linked to nothing.
    await addFile('A1'.repeat(16), 5152);
    await expectFresh();

    // A generated file's record deleted (its links stay), then a link deleted through the API.
    const linked = await db()
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .select(['f.id', 'l.episode_id'])
      .orderBy('f.id')
      .execute();
    await request('DELETE', `/api/v3/File/${linked[0]!.id}?removeFiles=false`);
    await request('DELETE', `/api/v3/File/${first}/Link`);
    await expectFresh();

    // Re-links straight in the table: one link to another episode, one to another content, one both.
    const links = await db().selectFrom('file_episode_links').select(['id', 'ed2k', 'size']).orderBy('id').execute();
    await db().updateTable('file_episode_links').set({ episode_id: c.anidb_episode_id }).where('id', '=', links[1]!.id).execute();
    await db()
      .updateTable('file_episode_links')
      .set({ ed2k: links[3]!.ed2k, size: links[3]!.size })
      .where('id', '=', links[2]!.id)
      .execute();
    await db()
      .updateTable('file_episode_links')
      .set({ ed2k: 'A1'.repeat(16), size: 5151, episode_id: a.anidb_episode_id })
      .where('id', '=', links[4]!.id)
      .execute();
    await expectFresh();

    // A file found before it is hashed, then hashed to a linked content; another re-hashed away from its content.
    const unhashed = await addFile('', 7777);
    await expectFresh();
    await db().updateTable('files').set({ ed2k: links[3]!.ed2k, size: links[3]!.size }).where('id', '=', unhashed).execute();
    await db()
      .updateTable('files')
      .set({ ed2k: 'B2'.repeat(16) })
      .where('id', '=', linked[1]!.id)
      .execute();
    await expectFresh();

    // Several links in one statement (two to one episode), then every link of a content in one statement.
    await db()
      .insertInto('file_episode_links')
      .values([
        link('A1'.repeat(16), 5151, c.anime_id, c.anidb_episode_id),
        link(links[3]!.ed2k, Number(links[3]!.size), c.anime_id, c.anidb_episode_id),
      ])
      .execute();
    await expectFresh();
    await db().deleteFrom('file_episode_links').where('ed2k', '=', 'A1'.repeat(16)).execute();
    await db().deleteFrom('files').where('ed2k', '=', links[3]!.ed2k).execute();
    await expectFresh();
  });

  it('follow episodes and AniDB episodes stored, changed and deleted', async () => {
    const series = await db().selectFrom('series').select(['id', 'anime_id']).orderBy('id').executeTakeFirstOrThrow();
    const anidbEpisode = (id: number, type: string, number: number) => ({
      id,
      anime_id: series.anime_id,
      type,
      number,
      length_seconds: 60,
      air_date: null,
      rating: 0,
      votes: 0,
      description: '',
      titles: '[]',
    });
    /** A Shoko episode of the AniDB episode, stored after a file linked to that AniDB episode. */
    const episodeWithFile = async (anidbEpisodeId: number, ed2k: string, size: number) => {
      await db()
        .insertInto('file_episode_links')
        .values(link(ed2k, size, series.anime_id, anidbEpisodeId))
        .execute();
      await addFile(ed2k, size);
      const values = {
        series_id: series.id,
        anidb_episode_id: anidbEpisodeId,
        is_hidden: 0,
        title_override: null,
        created_at: now,
        updated_at: now,
      };
      return (await db().insertInto('episodes').values(values).returning('id').executeTakeFirstOrThrow()).id;
    };
    // An AniDB episode with a linked file before its Shoko episode exists; a Shoko episode whose AniDB episode is not
    // stored (yet).
    await db()
      .insertInto('anidb_episodes')
      .values(anidbEpisode(990_001, 'Parody', 3))
      .execute();
    const added = await episodeWithFile(990_001, 'C3'.repeat(16), 6161);
    const orphan = await episodeWithFile(990_002, 'D4'.repeat(16), 7171);
    let keys = await expectFresh();
    expect(keys.find((e) => e.id === added)).toEqual({ id: added, local_file_count: 1, sort_type_rank: 5, sort_number: 3 });
    expect(keys.find((e) => e.id === orphan)).toEqual({ id: orphan, local_file_count: 1, sort_type_rank: null, sort_number: 0 });

    // The AniDB episode arrives; another changes type and number (an AniDB refresh's upsert); one is deleted.
    await db()
      .insertInto('anidb_episodes')
      .values(anidbEpisode(990_002, 'Credits', 2))
      .execute();
    await db()
      .insertInto('anidb_episodes')
      .values(anidbEpisode(990_001, 'Special', 9))
      .onConflict((oc) => oc.column('id').doUpdateSet({ type: 'Special', number: 9 }))
      .execute();
    const generated = await db().selectFrom('episodes').select(['id', 'anidb_episode_id']).orderBy('id').limit(2).execute();
    await db().updateTable('anidb_episodes').set({ type: 'Mystery' }).where('id', '=', generated[0]!.anidb_episode_id).execute();
    await db().deleteFrom('anidb_episodes').where('id', '=', generated[1]!.anidb_episode_id).execute();
    keys = await expectFresh();
    expect(keys.find((e) => e.id === added)).toMatchObject({ sort_type_rank: 3, sort_number: 9 });
    expect(keys.find((e) => e.id === generated[1]!.id)).toMatchObject({ sort_type_rank: null });

    // A Shoko episode moved to another AniDB episode; an AniDB episode given another id.
    await db().updateTable('episodes').set({ anidb_episode_id: 990_003 }).where('id', '=', orphan).execute();
    await db().updateTable('anidb_episodes').set({ id: 990_003 }).where('id', '=', 990_002).execute();
    await db().updateTable('episodes').set({ anidb_episode_id: 990_002 }).where('id', '=', added).execute();
    await db().updateTable('anidb_episodes').set({ id: 990_002 }).where('id', '=', 990_001).execute();
    await expectFresh();
  });

  it('are filled from the base tables by the migration', async () => {
    await sql`UPDATE episodes SET local_file_count = 42, sort_type_rank = 99, sort_number = -1`.execute(db());
    await fillListKeys(db() as unknown as Kysely<unknown>);
    await expectFresh();
  });
});
