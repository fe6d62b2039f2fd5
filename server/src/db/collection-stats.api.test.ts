import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionStats } from './collection-stats.js';
import { generateCollection } from '../domains/groups/synthetic.js';
import { moveSeriesToNewAnime } from '../test/generated-collection.js';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../test/harness.js';
import { userLinkRow } from '../test/seed-files.js';

/**
 * The maintained Dashboard/Stats row (migration 0031, db/collection-stats.ts) against a fresh computation from the
 * base tables in plain code, after each kind of change a figure reads; a viewer with a tag restriction is computed
 * from the base tables by the same rules.
 */
describe('maintained collection stats', () => {
  let server: TestServer;
  let admin: string;
  let restrictedUser: number;
  let restrictedTag: number;

  beforeAll(async () => {
    server = await createTestServer({ services: { figuresUpkeep: false } });
    admin = await completeFirstRun(server);
    restrictedUser = (await createUser(server, admin, 'viewer', 'viewer-pass')).id;
    const db = server.services.db.kysely;
    await generateCollection(db, { series: 8, files: 60, seed: 11, userIds: [1], placeFiles: true });
    restrictedTag = (await db.selectFrom('anidb_anime_tags').select('tag_id').orderBy('anime_id').limit(1).executeTakeFirstOrThrow())
      .tag_id;
    await db
      .updateTable('users')
      .set({ restricted_tags: JSON.stringify([restrictedTag]) })
      .where('id', '=', restrictedUser)
      .execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The file figures of Dashboard/Stats from the base tables, for a viewer hiding `hiddenTags`. */
  async function expected(hiddenTags: number[]) {
    const db = server.services.db.kysely;
    const [series, tags, links, files, locations] = await Promise.all([
      db.selectFrom('series').select('anime_id').execute(),
      db.selectFrom('anidb_anime_tags').select(['anime_id', 'tag_id']).execute(),
      db.selectFrom('file_episode_links').select(['ed2k', 'size', 'anime_id', 'episode_id']).execute(),
      db.selectFrom('files').select(['id', 'ed2k', 'size', 'is_ignored', 'is_variation']).execute(),
      db.selectFrom('file_locations').select('file_id').execute(),
    ]);
    const hidden = new Set(tags.filter((t) => hiddenTags.includes(t.tag_id)).map((t) => t.anime_id));
    const visible = new Set(series.map((s) => s.anime_id).filter((id) => !hidden.has(id)));
    const content = (r: { ed2k: string; size: number | string }) => `${r.ed2k}/${Number(r.size)}`;
    const linksOf = (f: (typeof files)[number]) => links.filter((l) => content(l) === content(f));
    const inCollection = files.filter((f) => linksOf(f).some((l) => visible.has(l.anime_id)));
    const filesByEpisode = new Map<number, Set<number>>();
    for (const f of files.filter((f) => !f.is_variation))
      for (const l of linksOf(f).filter((l) => visible.has(l.anime_id)))
        filesByEpisode.set(l.episode_id, (filesByEpisode.get(l.episode_id) ?? new Set()).add(f.id));
    const placesOf = new Map<number, number>();
    for (const l of locations) placesOf.set(l.file_id, (placesOf.get(l.file_id) ?? 0) + 1);
    const multiple = [...filesByEpisode.values()].filter((ids) => ids.size > 1).length;
    return {
      FileCount: inCollection.length,
      FileSize: inCollection.reduce((sum, f) => sum + Number(f.size), 0),
      EpisodesWithMultipleFiles: multiple,
      UnrecognizedFiles: files.filter((f) => f.ed2k !== '' && !f.is_ignored && !linksOf(f).length).length,
      FilesWithDuplicateLocations: [...placesOf.values()].filter((n) => n > 1).length,
      PercentDuplicate: locations.length ? Math.round((multiple * 10000) / locations.length) / 100 : 0,
    };
  }

  /** Each viewer's Stats (the service, so the route's read cache cannot answer) equal the base tables' figures. */
  async function expectConsistent() {
    const db = server.services.db.kysely;
    const all = await expected([]);
    expect(await server.services.dashboard.stats(1)).toMatchObject(all);
    expect(await db.selectFrom('collection_stats_changes').selectAll().execute()).toEqual([]);
    expect(await server.services.dashboard.stats(restrictedUser)).toMatchObject(await expected([restrictedTag]));
    return all;
  }

  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await server.request({ method, url, key: admin, body });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('match the base tables after imports, links, unlinks, flags, location moves, deletes and series changes', async () => {
    const db = server.services.db.kysely;
    const first = await expectConsistent();
    for (const figure of ['FileCount', 'UnrecognizedFiles', 'FilesWithDuplicateLocations'] as const)
      expect(first[figure]).toBeGreaterThan(0);
    expect(await expected([restrictedTag])).not.toEqual(first);

    // A file of a hidden series also linked to a visible series' episode: it stays in the restricted viewer's figures.
    const hiddenAnime = db.selectFrom('anidb_anime_tags').select('anime_id').where('tag_id', '=', restrictedTag);
    const { id: _link, ...hiddenLink } = await db
      .selectFrom('file_episode_links')
      .selectAll()
      .where('anime_id', 'in', hiddenAnime)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const visible = await db
      .selectFrom('anidb_episodes')
      .select(['id', 'anime_id'])
      .where('anime_id', 'not in', hiddenAnime)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('file_episode_links')
      .values({ ...hiddenLink, anime_id: visible.anime_id, episode_id: visible.id })
      .execute();
    await expectConsistent();

    const linked = await db.selectFrom('file_episode_links').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...template } = await db
      .selectFrom('files')
      .selectAll()
      .where('ed2k', '=', linked.ed2k)
      .where('size', '=', linked.size)
      .executeTakeFirstOrThrow();
    // A second file of a linked episode's content (a multiple-file episode), and a new file linked through the API.
    await db.insertInto('files').values(template).execute();
    const fresh = await db
      .insertInto('files')
      .values({ ...template, ed2k: 'EF'.repeat(16), size: 777 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await expectConsistent()).UnrecognizedFiles).toBe(first.UnrecognizedFiles + 1);
    const episode = await db.selectFrom('episodes').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    await call('POST', `/api/v3/File/${fresh.id}/Link`, { EpisodeIDs: [episode.id] });
    expect((await expectConsistent()).EpisodesWithMultipleFiles).toBeGreaterThan(first.EpisodesWithMultipleFiles);

    // Flags, an unlink and a record deleted.
    const unrecognized = await db.selectFrom('files').select('id').where('size', '>=', 50_000_000).orderBy('id').executeTakeFirstOrThrow();
    await call('PUT', `/api/v3/File/${unrecognized.id}/Ignore?value=true`);
    const fileIds = (await db.selectFrom('files').select('id').orderBy('id').execute()).map((f) => f.id);
    await call('PUT', `/api/v3/File/${fileIds[0]}/Variation?value=true`);
    await call('DELETE', `/api/v3/File/${fresh.id}/Link`);
    await call('DELETE', `/api/v3/File/${fileIds[1]}?removeFiles=false`);
    await expectConsistent();

    // Locations moved between files, added and removed; a file rehashed.
    const places = await db.selectFrom('file_locations').select(['id', 'file_id']).orderBy('id').execute();
    await db.updateTable('file_locations').set({ file_id: places[5]!.file_id }).where('id', '=', places[3]!.id).execute();
    await db.deleteFrom('file_locations').where('id', '=', places[8]!.id).execute();
    await db
      .insertInto('file_locations')
      .values({ file_id: fileIds[4]!, import_folder_id: 1, relative_path: 'again/x.mkv', is_accessible: 1, mtime_ms: null })
      .execute();
    expect((await expectConsistent()).FilesWithDuplicateLocations).toBeGreaterThan(first.FilesWithDuplicateLocations);
    await db
      .updateTable('files')
      .set({ ed2k: 'AA'.repeat(16) })
      .where('id', '=', fileIds[6]!)
      .execute();
    await expectConsistent();

    // A series moved to an anime without files: its files leave the collection.
    const anime = await db.selectFrom('anidb_anime').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    await moveSeriesToNewAnime(db, anime.id);
    expect((await expectConsistent()).FileCount).toBeLessThan(first.FileCount);
  });

  it('fill the row again from the whole collection once the change rows pile up', async () => {
    const db = server.services.db.kysely;
    const file = await db.selectFrom('files').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    await db.updateTable('files').set({ is_variation: 1 }).where('id', '=', file.id).execute();
    await db.deleteFrom('file_locations').where('file_id', '=', file.id).execute();
    expect((await db.selectFrom('collection_stats_changes').selectAll().execute()).length).toBeGreaterThan(0);
    // A threshold of one change row takes the whole-collection path.
    await collectionStats(db, server.services.db.dialect, 1);
    await expectConsistent();
  });

  it('stay exact after each single change, multi-row statements included', async () => {
    const db = server.services.db.kysely;
    const seriesRows = await db.selectFrom('series').select(['id', 'anime_id']).orderBy('id').execute();
    const episodeOf = async (animeId: number, nth = 0) =>
      (
        await db
          .selectFrom('anidb_episodes')
          .select('id')
          .where('anime_id', '=', animeId)
          .orderBy('id')
          .offset(nth)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id;
    const [a, b, c] = [seriesRows[1]!, seriesRows[2]!, seriesRows[3]!];
    const content = { ed2k: 'C0'.repeat(16), size: 4242 };
    const template = await db.selectFrom('files').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...fileValues } = template;
    const newFile = (values: Partial<typeof fileValues>) => ({ ...fileValues, is_ignored: 0, is_variation: 0, ...values });
    const link = (animeId: number, episodeId: number) => userLinkRow(content, animeId, episodeId);
    let fileIds: number[] = [];
    const episodeA = await episodeOf(a.anime_id);
    const episodeB = await episodeOf(b.anime_id);
    const place = (fileId: number, path: string) => ({
      file_id: fileId,
      import_folder_id: 1,
      relative_path: path,
      is_accessible: 1,
      mtime_ms: null,
    });

    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'two files of one new content added in one statement, one ignored, and an unhashed file',
        async () => {
          const rows = await db
            .insertInto('files')
            .values([newFile(content), newFile({ ...content, is_ignored: 1 }), newFile({ ed2k: '', size: 999 })])
            .returning('id')
            .execute();
          fileIds = rows.map((r) => r.id);
        },
      ],
      [
        'the content linked to an episode of one series',
        () => db.insertInto('file_episode_links').values(link(a.anime_id, episodeA)).execute(),
      ],
      [
        'the same content linked to a second series',
        () => db.insertInto('file_episode_links').values(link(b.anime_id, episodeB)).execute(),
      ],
      ['one of its files made a variation', () => call('PUT', `/api/v3/File/${fileIds[0]}/Variation?value=true`)],
      ['the variation flag taken back', () => call('PUT', `/api/v3/File/${fileIds[0]}/Variation?value=false`)],
      ['the other one no longer ignored', () => call('PUT', `/api/v3/File/${fileIds[1]}/Ignore?value=false`)],
      [
        'the link to the second series removed alone',
        () => db.deleteFrom('file_episode_links').where('ed2k', '=', content.ed2k).where('anime_id', '=', b.anime_id).execute(),
      ],
      ['and made again', () => db.insertInto('file_episode_links').values(link(b.anime_id, episodeB)).execute()],
      [
        'three locations of one file added in one statement',
        () =>
          db
            .insertInto('file_locations')
            .values([place(fileIds[0]!, 'stats/a.mkv'), place(fileIds[0]!, 'stats/b.mkv'), place(fileIds[1]!, 'stats/c.mkv')])
            .execute(),
      ],
      [
        'every location of one file moved to another file',
        () => db.updateTable('file_locations').set({ file_id: fileIds[2]! }).where('file_id', '=', fileIds[0]!).execute(),
      ],
      [
        'the unhashed file hashed to the linked content',
        () => db.updateTable('files').set(content).where('id', '=', fileIds[2]!).execute(),
      ],
      ['its size changed (a different content)', () => db.updateTable('files').set({ size: 4243 }).where('id', '=', fileIds[2]!).execute()],
      [
        'the link to the first series moved to another episode of another series',
        () =>
          db
            .updateTable('file_episode_links')
            .set({ anime_id: c.anime_id, episode_id: episodeA })
            .where('ed2k', '=', content.ed2k)
            .where('anime_id', '=', a.anime_id)
            .execute(),
      ],
      ['several locations removed in one statement', () => db.deleteFrom('file_locations').where('file_id', 'in', fileIds).execute()],
      [
        'a file deleted with its locations (cascade)',
        async () => {
          await db
            .insertInto('file_locations')
            .values([place(fileIds[1]!, 'stats/d.mkv'), place(fileIds[1]!, 'stats/e.mkv')])
            .execute();
          await db.deleteFrom('files').where('id', '=', fileIds[1]!).execute();
        },
      ],
      ['a series moved to an anime without files', () => moveSeriesToNewAnime(db, seriesRows[4]!.anime_id)],
      ["a series removed, AniDB's links kept", () => call('DELETE', `/api/v3/Series/${seriesRows[5]!.id}`)],
      ['a series removed with its AniDB data and links', () => call('DELETE', `/api/v3/Series/${b.id}?completelyRemove=true`)],
      [
        'episodes and their links removed',
        async () => {
          const episodes = db.selectFrom('anidb_episodes').select('id').where('anime_id', '=', c.anime_id);
          await db.deleteFrom('file_episode_links').where('episode_id', 'in', episodes).execute();
        },
      ],
      [
        'every link of the content removed in one statement',
        () => db.deleteFrom('file_episode_links').where('ed2k', '=', content.ed2k).execute(),
      ],
      ['several files deleted in one statement', () => db.deleteFrom('files').where('id', 'in', fileIds).execute()],
    ];
    const seen = new Map<string, Set<number>>();
    for (const [step, change] of steps) {
      await change();
      const figures = await expectConsistent().catch((error: unknown) => {
        throw new Error(`after "${step}": ${String(error)}`);
      });
      for (const [name, value] of Object.entries(figures)) seen.set(name, (seen.get(name) ?? new Set()).add(value));
    }
    // The steps moved every figure the row holds.
    for (const name of ['FileCount', 'FileSize', 'EpisodesWithMultipleFiles', 'UnrecognizedFiles', 'FilesWithDuplicateLocations'])
      expect(seen.get(name)!.size, name).toBeGreaterThan(1);
  });
});
