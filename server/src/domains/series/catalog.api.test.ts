import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from './test-support.js';
import { seedImportFolder } from '../../test/seed-files.js';

/**
 * Invented collection: "Harbor Lights" (anime 301, 2020 winter) and its sequel "Harbor Lights Season 2" (302, 2021
 * summer), "Aozora Diaries" (303, 2019 fall, English title "Blue Sky Diaries") and "Secret Garden" (304, 2018 spring)
 * whose tag 99 is restricted for the viewer. One file of Harbor Lights lies in /media/anime/Harbor Lights/.
 */
describe('series lists, search and AniDB views', () => {
  let server: TestServer;
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  let viewerKey: string;
  const id: Record<number, number> = {};

  const get = async (url: string, key?: string) => {
    const res = await api('GET', url, undefined, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = (list: Array<{ Name: string }>) => list.map((s) => s.Name);

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    viewerKey = setup.viewer.key;
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 301,
        title: 'Harbor Lights',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Minato no Akari' },
          { type: 'official', language: 'en', value: 'Harbor Lights' },
          { type: 'official', language: 'de', value: 'Hafenlichter' },
        ],
        airDate: '2020-01-05',
        endDate: '2020-03-29',
        episodes: [{ id: 3001, file: true }],
      },
      {
        animeId: 302,
        title: 'Harbor Lights Season 2',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Minato no Akari 2' },
          { type: 'official', language: 'en', value: 'Harbor Lights Season 2' },
        ],
        airDate: '2021-07-01',
        endDate: '2021-09-20',
        episodes: [{ id: 3101, file: true }],
      },
      {
        animeId: 303,
        title: 'Aozora Diaries',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Aozora Nikki' },
          { type: 'official', language: 'en', value: 'Blue Sky Diaries' },
        ],
        airDate: '2019-10-01',
        endDate: '2019-12-20',
        episodes: [{ id: 3201 }],
      },
      {
        animeId: 304,
        title: 'Secret Garden',
        airDate: '2018-04-01',
        endDate: '2018-06-30',
        tags: [{ id: 99, name: 'ecchi' }],
        episodes: [{ id: 3301, file: true }],
      },
    ]);
    for (const [animeId, w] of written) id[animeId] = w.seriesId;
    await db
      .insertInto('anidb_relations')
      .values({ anime_id: 301, related_anime_id: 302, relation_type: 'sequel', related_title: 'Harbor Lights Season 2' })
      .execute();
    const folderId = await seedImportFolder(server, 'Anime', '/media/anime');
    const fileOf = (anidbEpisode: number) =>
      db
        .selectFrom('files as f')
        .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
        .select('f.id')
        .where('l.episode_id', '=', anidbEpisode)
        .executeTakeFirstOrThrow();
    const file = await fileOf(3001);
    await db
      .insertInto('file_locations')
      .values({
        file_id: (await fileOf(3301)).id,
        import_folder_id: folderId,
        relative_path: 'Secret Garden/01.mkv',
        is_accessible: 1,
        mtime_ms: null,
      })
      .execute();
    await db
      .insertInto('file_locations')
      .values({
        file_id: file.id,
        import_folder_id: folderId,
        relative_path: 'Harbor Lights/Harbor Lights - 01.mkv',
        is_accessible: 1,
        mtime_ms: null,
      })
      .execute();
    // Written behind the services' backs: announce it as an import does, or a search index the server built in the
    // background while this ran (2 s after its start; a loaded machine takes longer to get here) would be kept.
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('GET Series', () => {
    it('pages every visible series by name', async () => {
      const first = await get('/api/v3/Series?pageSize=2&page=1');
      expect(first.Total).toBe(4);
      expect(names(first.List)).toEqual(['Aozora Diaries', 'Harbor Lights']);
      expect(first.List[0].IDs).toMatchObject({ ID: id[303], AniDB: 303 });
      expect(first.List[0]).not.toHaveProperty('AniDB');
      expect(names((await get('/api/v3/Series?pageSize=2&page=2')).List)).toEqual(['Harbor Lights Season 2', 'Secret Garden']);
      expect((await get('/api/v3/Series?pageSize=2&page=3')).List).toEqual([]);
      expect((await get('/api/v3/Series?pageSize=0')).List).toHaveLength(4);
      expect((await get('/api/v3/Series')).List).toHaveLength(4);
    });

    it('filters by name prefix (any case) and drops series hidden from the viewer', async () => {
      expect(names((await get('/api/v3/Series?startsWith=HARBOR')).List)).toEqual(['Harbor Lights', 'Harbor Lights Season 2']);
      const viewer = await get('/api/v3/Series?pageSize=0', viewerKey);
      expect(viewer.Total).toBe(3);
      expect(names(viewer.List)).not.toContain('Secret Garden');
    });

    it('answers 400 naming the parameter for out-of-range paging', async () => {
      for (const [query, field] of [
        ['pageSize=101', 'pageSize'],
        ['page=0', 'page'],
        ['pageSize=abc', 'pageSize'],
      ]) {
        const res = await api('GET', `/api/v3/Series?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(Object.keys(res.json().errors)).toContain(field);
      }
    });
  });

  describe('GET Series/Search', () => {
    it('ranks substring matches first, earliest occurrence first, and reports how each matched', async () => {
      const results = await get('/api/v3/Series/Search?query=harbor');
      // Loosely similar titles may follow the substring matches, never before them.
      expect(names(results).slice(0, 2)).toEqual(['Harbor Lights', 'Harbor Lights Season 2']);
      expect(results.slice(2).every((r: { ExactMatch: boolean }) => !r.ExactMatch)).toBe(true);
      expect(names(await get('/api/v3/Series/Search?query=harbor&fuzzy=false'))).toEqual(['Harbor Lights', 'Harbor Lights Season 2']);
      expect(results[0]).toMatchObject({ ExactMatch: true, Index: 0, Distance: 0, LengthDifference: 7, Match: 'Harbor Lights' });
      expect(results[0].IDs.ID).toBe(id[301]);
      expect(results[0].Sizes).toBeDefined();
      const later = await get('/api/v3/Series/Search?query=lights');
      expect(later[0]).toMatchObject({ ExactMatch: true, Index: 7 });
    });

    it('finds misspelt titles only when fuzzy', async () => {
      const fuzzy = await get('/api/v3/Series/Search?query=harbr%20lihgts');
      expect(fuzzy[0].Name).toBe('Harbor Lights');
      expect(fuzzy[0].ExactMatch).toBe(false);
      expect(fuzzy[0].Distance).toBeGreaterThan(0);
      expect(fuzzy[0].Distance).toBeLessThan(0.8);
      expect(await get('/api/v3/Series/Search?query=harbr%20lihgts&fuzzy=false')).toEqual([]);
      expect(await get('/api/v3/Series/Search?query=zzzzqqqq')).toEqual([]);
    });

    it('searches English and Romaji titles but not other languages, honours limit and searchById', async () => {
      expect(names(await get('/api/v3/Series/Search?query=blue%20sky'))).toEqual(['Aozora Diaries']);
      expect(names(await get('/api/v3/Series/Search?query=nikki'))).toEqual(['Aozora Diaries']);
      expect(await get('/api/v3/Series/Search?query=hafenlichter&fuzzy=false')).toEqual([]);
      expect(await get('/api/v3/Series/Search?query=harbor&limit=1')).toHaveLength(1);
      expect(await get('/api/v3/Series/Search?query=harbor&limit=0')).toEqual([]);
      expect(await get('/api/v3/Series/Search?query=')).toEqual([]);
      const byId = await get('/api/v3/Series/Search?query=303&searchById=true');
      expect(byId).toHaveLength(1);
      expect(byId[0]).toMatchObject({ Name: 'Aozora Diaries', ExactMatch: true, Match: '303' });
    });

    it('hides series restricted for the viewer and validates limit', async () => {
      expect(names(await get('/api/v3/Series/Search?query=secret'))).toEqual(['Secret Garden']);
      expect(await get('/api/v3/Series/Search?query=secret', viewerKey)).toEqual([]);
      const bad = await api('GET', '/api/v3/Series/Search?query=x&limit=1001');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('limit');
    });

    it('finds a title an AniDB update changed once the change is announced', async () => {
      // An AniDB update runs as a job and announces its end; the prepared titles and the kept answers go then.
      const retitle = async (from: string, to: string) => {
        await server.services.db.kysely
          .updateTable('anidb_anime_titles')
          .set({ value: to })
          .where('anime_id', '=', 303)
          .where('value', '=', from)
          .execute();
        server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
      };
      expect(names(await get('/api/v3/Series/Search?query=blue%20sky'))).toEqual(['Aozora Diaries']);
      await retitle('Blue Sky Diaries', 'Clear Sky Journal');
      try {
        expect(names(await get('/api/v3/Series/Search?query=clear%20sky&fuzzy=false'))).toEqual(['Aozora Diaries']);
        expect(await get('/api/v3/Series/Search?query=blue%20sky&fuzzy=false')).toEqual([]);
      } finally {
        await retitle('Clear Sky Journal', 'Blue Sky Diaries');
      }
    });

    it('takes the obsolete path form, decoding it once more', async () => {
      expect(names(await get('/api/v3/Series/Search/blue%2Bsky'))).toEqual(['Aozora Diaries']);
      expect(names(await get('/api/v3/Series/Search/Harbor%2520Lights?limit=1'))).toEqual(['Harbor Lights']);
    });
  });

  it('GET Series/StartsWith/{query} matches the start of any AniDB title', async () => {
    const results = await get('/api/v3/Series/StartsWith/minato');
    expect(names(results)).toEqual(['Harbor Lights', 'Harbor Lights Season 2']);
    expect(results[0].Match).toBe('Minato no Akari');
    expect(await get('/api/v3/Series/StartsWith/minato?limit=1')).toHaveLength(1);
    expect(await get('/api/v3/Series/StartsWith/ecchi')).toEqual([]);
  });

  it('GET Series/PathEndsWith/{*path} finds series by the end of a folder path, either slash style', async () => {
    const harbor = [id[301]];
    const ids = async (path: string) =>
      ((await get(`/api/v3/Series/PathEndsWith/${path}`)) as Array<{ IDs: { ID: number } }>).map((s) => s.IDs.ID);
    expect(await ids('Harbor%20Lights')).toEqual(harbor);
    expect(await ids('anime/harbor%20lights/')).toEqual(harbor);
    expect(await ids('anime%5CHarbor%20Lights')).toEqual(harbor);
    expect(await ids('media/anime/Harbor%2520Lights')).toEqual(harbor);
    expect(await ids('Other%20Show')).toEqual([]);
    expect(await ids('%2FHarbor%20Lights')).toEqual(harbor);
    expect(await ids('Secret%20Garden')).toEqual([id[304]]);
    const hidden = await api('GET', '/api/v3/Series/PathEndsWith/Secret%20Garden', undefined, viewerKey);
    expect(hidden.json()).toEqual([]);
  });

  it('GET Series/Years and Series/Seasons list what the visible series aired in', async () => {
    expect(await get('/api/v3/Series/Years')).toEqual([2018, 2019, 2020, 2021]);
    expect(await get('/api/v3/Series/Years', viewerKey)).toEqual([2019, 2020, 2021]);
    expect(await get('/api/v3/Series/Seasons')).toEqual([
      { Year: 2018, AnimeSeason: 'Spring' },
      { Year: 2019, AnimeSeason: 'Fall' },
      { Year: 2020, AnimeSeason: 'Winter' },
      { Year: 2021, AnimeSeason: 'Summer' },
    ]);
  });

  describe('AniDB views', () => {
    it('GET Series/AniDB pages the stored anime by title with their titles', async () => {
      const page = await get('/api/v3/Series/AniDB?pageSize=2');
      expect(page.Total).toBe(4);
      expect(page.List.map((a: { ID: number }) => a.ID)).toEqual([303, 301]);
      expect(page.List[1]).toMatchObject({ ID: 301, ShokoID: id[301], Title: 'Harbor Lights', EpisodeCount: 1 });
      expect(page.List[1].Titles.map((t: { Name: string }) => t.Name)).toContain('Minato no Akari');
      expect((await get('/api/v3/Series/AniDB?startsWith=secret')).Total).toBe(1);
      expect((await get('/api/v3/Series/AniDB?startsWith=secret', viewerKey)).Total).toBe(0);
      expect((await api('GET', '/api/v3/Series/AniDB?pageSize=500')).statusCode).toBe(400);
    });

    it('GET Series/AniDB/Relations lists every relation both ways', async () => {
      const relations = await get('/api/v3/Series/AniDB/Relations');
      expect(relations).toEqual({
        Total: 2,
        List: [
          { IDs: { Shoko: id[301], AniDB: 301 }, RelatedIDs: { Shoko: id[302], AniDB: 302 }, Type: 'Sequel', Source: 'AniDB' },
          { IDs: { Shoko: id[302], AniDB: 302 }, RelatedIDs: { Shoko: id[301], AniDB: 301 }, Type: 'Prequel', Source: 'AniDB' },
        ],
      });
      expect((await get('/api/v3/Series/AniDB/Relations?pageSize=1&page=2')).List[0].Type).toBe('Prequel');
    });

    it('GET Series/{id}/AniDB answers the anime, 404 and 403 as Series/{id} does', async () => {
      const anime = await get(`/api/v3/Series/${id[303]}/AniDB`);
      expect(anime).toMatchObject({ ID: 303, ShokoID: id[303], Type: 'TV', AirDate: '2019-10-01' });
      expect(anime.Titles.map((t: { Name: string }) => t.Name)).toEqual(expect.arrayContaining(['Aozora Nikki', 'Blue Sky Diaries']));
      const missing = await api('GET', '/api/v3/Series/99999/AniDB');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Series entry for the given seriesID');
      const forbidden = await api('GET', `/api/v3/Series/${id[304]}/AniDB`, undefined, viewerKey);
      expect(forbidden.statusCode).toBe(403);
      expect((await api('GET', '/api/v3/Series/0/AniDB')).statusCode).toBe(400);
    });

    it('GET Series/AniDB/{anidbID}/Related and /Relations give the forward relations only', async () => {
      const related = await get('/api/v3/Series/AniDB/301/Related');
      expect(related).toHaveLength(1);
      expect(related[0]).toMatchObject({ ID: 302, ShokoID: id[302], Relation: 'Sequel' });
      expect(await get('/api/v3/Series/AniDB/302/Related')).toEqual([]);
      expect(await get('/api/v3/Series/AniDB/301/Relations')).toEqual([
        { IDs: { Shoko: id[301], AniDB: 301 }, RelatedIDs: { Shoko: id[302], AniDB: 302 }, Type: 'Sequel', Source: 'AniDB' },
      ]);
      expect(await get('/api/v3/Series/AniDB/302/Relations')).toEqual([]);
      expect(await get('/api/v3/Series/AniDB/301/Similar')).toEqual([]);
    });

    it('answers 404 and 403 texts for unknown and hidden anime', async () => {
      for (const path of ['Similar', 'Related', 'Relations']) {
        const missing = await api('GET', `/api/v3/Series/AniDB/99999/${path}`);
        expect(missing.statusCode).toBe(404);
        expect(missing.body).toBe('No AnidbAnime entry for the given anidbID');
        const hidden = await api('GET', `/api/v3/Series/AniDB/304/${path}`, undefined, viewerKey);
        expect(hidden.statusCode).toBe(403);
        expect(hidden.body).toBe('Accessing AnidbAnime is not allowed for the current user');
      }
    });

    it('GET Series/AniDB/{anidbID}/Series answers the series of the anime', async () => {
      const series = await get('/api/v3/Series/AniDB/302/Series?includeDataFrom=AniDB');
      expect(series.IDs).toMatchObject({ ID: id[302], AniDB: 302 });
      expect(series.AniDB.ID).toBe(302);
      const missing = await api('GET', '/api/v3/Series/AniDB/99999/Series');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Series entry for the given anidbID');
      expect((await api('GET', '/api/v3/Series/AniDB/304/Series', undefined, viewerKey)).statusCode).toBe(403);
    });
  });
});
