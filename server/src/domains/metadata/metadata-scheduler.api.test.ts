import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness.js';
import { fileRow, insertSeries } from '../groups/synthetic.store.js';
import { MetadataSchedulerStore } from './metadata-scheduler.store.js';

describe('the scheduled AniDB check: linked anime without a series', () => {
  let server: TestServer;
  let store: MetadataSchedulerStore;

  beforeAll(async () => {
    server = await createTestServer();
    store = new MetadataSchedulerStore(server.services.db.kysely);
  });
  afterAll(() => server.close());

  const link = (animeId: number, episodeId: number, ed2k: string) =>
    server.services.db.kysely
      .insertInto('file_episode_links')
      .values({ ed2k, size: 1000 + episodeId, anime_id: animeId, episode_id: episodeId, percentage: 100, ordering: 0, source: 'AniDB' })
      .execute();
  const missing = async () => (await store.linkedAnimeWithoutSeries()).sort((a, b) => a - b);

  it('lists each linked anime that has no series once, from an empty table to several links per anime', async () => {
    expect(await missing()).toEqual([]);
    // Anime 10 has a series (and its file's link); 5, 20 and 30 are only linked, 30 and 5 by several files.
    await insertSeries(server.services.db.kysely, [{ animeId: 10, title: 'Has a series', episodes: [{ id: 101, file: true }] }]);
    expect(await missing()).toEqual([]);
    await link(30, 301, 'a'.repeat(32));
    await link(30, 302, 'b'.repeat(32));
    await link(20, 201, 'c'.repeat(32));
    await link(5, 51, 'd'.repeat(32));
    await link(5, 52, 'e'.repeat(32));
    await link(5, 53, 'f'.repeat(32));
    expect(await missing()).toEqual([5, 20, 30]);
    // Once a series exists for an anime it is no longer listed; the smallest and largest ids are walked too.
    await insertSeries(server.services.db.kysely, [{ animeId: 20, title: 'Now with a series' }]);
    expect(await missing()).toEqual([5, 30]);
    await insertSeries(server.services.db.kysely, [
      { animeId: 5, title: 'First' },
      { animeId: 30, title: 'Last' },
    ]);
    expect(await missing()).toEqual([]);
  });
});

describe('the scheduled AniDB check: unlinked files', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('reads the hashed files without links that one read of every file gives, each once, as links and files change', async () => {
    const db = server.services.db.kysely;
    const now = new Date(0).toISOString();
    const hash = (first: string) => first + '0'.repeat(31);
    // Hashes starting with every kind of hex digit, and beyond.
    const starts = [...'0123456789ABCDEFabcdef', 'z', '~'];
    const contents = starts.map((first, i) => ({ ed2k: hash(first), size: 5000 + i }));
    const ids = async (values: Array<{ ed2k: string; size: number; is_ignored?: number }>) =>
      (
        await db
          .insertInto('files')
          .values(values.map((v) => ({ ...fileRow(v, now, now), is_ignored: v.is_ignored ?? 0 })))
          .returning('id')
          .execute()
      ).map((r) => r.id);
    const unlinked = await ids(contents);
    // A content held by two files; an ignored file; a file not hashed yet; linked contents (one of them the same hash
    // at another size, which leaves that file unlinked).
    const twice = await ids([contents[3]!, contents[20]!]);
    await ids([
      { ed2k: hash('c'), size: 1, is_ignored: 1 },
      { ed2k: '', size: 2 },
    ]);
    const linked = await ids([
      { ed2k: hash('b'), size: 7 },
      { ed2k: hash('E'), size: 8 },
    ]);
    const otherSize = await ids([{ ed2k: hash('5'), size: 9 }]);
    await db
      .insertInto('file_episode_links')
      .values(
        [
          { ed2k: hash('b'), size: 7 },
          { ed2k: hash('E'), size: 8 },
          { ed2k: hash('5'), size: 10 },
        ].map((c, i) => ({ ...c, anime_id: 1, episode_id: 100 + i, percentage: 100, ordering: 0, source: 'AniDB' as const })),
      )
      .execute();
    await db
      .insertInto('anidb_files')
      .values({
        ...contents[10]!,
        file_id: null,
        anime_id: null,
        group_id: 0,
        source: '',
        version: 1,
        is_deprecated: 0,
        is_censored: null,
        is_chaptered: 0,
        file_name: '',
        description: '',
        audio_languages: '[]',
        subtitle_languages: '[]',
        lookup_attempts: 2,
        looked_up_at: now,
      })
      .execute();

    const store = new MetadataSchedulerStore(db);
    // The one read of every file the check made before.
    const whole = () =>
      db
        .selectFrom('files')
        .leftJoin('anidb_files', (join) => join.onRef('anidb_files.ed2k', '=', 'files.ed2k').onRef('anidb_files.size', '=', 'files.size'))
        .select(['files.id', 'anidb_files.lookup_attempts', 'anidb_files.looked_up_at'])
        .where('files.ed2k', '!=', '')
        .where('files.is_ignored', '=', 0)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('file_episode_links')
                .select('file_episode_links.id')
                .whereRef('file_episode_links.ed2k', '=', 'files.ed2k')
                .whereRef('file_episode_links.size', '=', 'files.size'),
            ),
          ),
        )
        .orderBy('files.id')
        .execute();
    const read = await store.unlinkedFilesWithLookups();
    expect(read).toEqual(await whole());
    expect(read.map((r) => r.id)).toEqual([...unlinked, ...twice, ...otherSize].sort((a, b) => a - b));
    expect(read.map((r) => r.id)).not.toContain(linked[0]);
    expect(read.find((r) => r.id === unlinked[10])).toMatchObject({ lookup_attempts: 2, looked_up_at: now });

    // A link removed, a content linked, a file ignored, a file hashed: the next read follows each change.
    await db.deleteFrom('file_episode_links').where('ed2k', '=', hash('b')).execute();
    await db
      .insertInto('file_episode_links')
      .values({ ed2k: hash('3'), size: contents[3]!.size, anime_id: 1, episode_id: 200, percentage: 100, ordering: 0, source: 'User' })
      .execute();
    await db.updateTable('files').set({ is_ignored: 1 }).where('id', '=', unlinked[0]!).execute();
    await db
      .updateTable('files')
      .set({ ed2k: hash('9'), size: 11 })
      .where('ed2k', '=', '')
      .execute();
    const after = await store.unlinkedFilesWithLookups();
    expect(after).toEqual(await whole());
    expect(after.map((r) => r.id)).toContain(linked[0]);
    expect(after.map((r) => r.id)).not.toContain(unlinked[3]);
    expect(after.map((r) => r.id)).not.toContain(twice[0]);
    expect(after.map((r) => r.id)).not.toContain(unlinked[0]);
    expect(after).toHaveLength(read.length + 1 - 2 - 1 + 1);
  });
});
