import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness.js';
import { EpisodeImagesStore } from './episode-images.store.js';

describe('whole-collection episode lists (Episode?pageSize=0&includeFiles)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  // More ids than one statement may bind (SQLite 32,766, PostgreSQL 65,535): `Episode?pageSize=0` asks about every
  // episode it lists, and answered 500 "too many SQL variables" at 100,000 files.
  it('reads the TMDB links, images and preferred images of 70,000 episodes', async () => {
    const store = new EpisodeImagesStore(server.services.db.kysely);
    const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
    expect(await store.tmdbEpisodeLinks(ids)).toEqual([]);
    expect(await store.tmdbMovieLinks(ids)).toEqual([]);
    expect(await store.tmdbImages('Episode', ids)).toEqual([]);
    expect((await store.preferredImageKeys(ids)).size).toBe(70_000);
  });

  it('lists the files of 40,000 contents, the few that exist among them', async () => {
    const db = server.services.db.kysely;
    const now = new Date().toISOString();
    const file = { ed2k: 'ab'.repeat(16), size: 1234 };
    await db
      .insertInto('files')
      .values({ ...file, crc32: '', md5: '', sha1: '', is_ignored: 0, is_variation: 0, created_at: now, updated_at: now })
      .execute();
    const contents = new Set(Array.from({ length: 40_000 }, (_, i) => `${i.toString(16).padStart(32, '0')}:${i + 1}`));
    contents.add(`${file.ed2k}:${file.size}`);
    // Same hash, other size: not asked for.
    contents.add(`${file.ed2k}:99`);
    const query = { page: 1, pageSize: 0, include: [], exclude: [], includeOnly: [], sortOrder: [] };
    const listed = await server.services.files.list({ ...query, contents });
    expect(listed.Total).toBe(1);
    expect(listed.List.map((f) => f.Size)).toEqual([1234]);
    expect((await server.services.files.list({ ...query, contents: new Set([`${file.ed2k}:99`]) })).Total).toBe(0);
  });
});
