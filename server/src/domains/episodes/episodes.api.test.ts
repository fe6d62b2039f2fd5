import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seedTmdbEpisodes, seedTmdbImage, seedTmdbMovies, seedTmdbShows } from '../../test/seed-tmdb.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

/**
 * Invented data: "Lantern Road" (anime 301): 3001 and 3002 with files (3002 watched by the admin), 3003 aired without a
 * file (missing, but linked by hand to a file that is not stored), 3004 unaired, 3005 hidden with a file, special 3011
 * without a file and credits 3021 with a file; it finished airing in 2020. "Night Market" (anime 302, still airing)
 * has 3101 with a file and 3102 without one and carries tag 99, restricted for the viewer. AniDB episode 3900 belongs
 * to anime 301 but has no Shoko episode.
 */
describe('episode API', () => {
  let server: TestServer;
  let viewerKey: string;
  let lantern = 0;
  let market = 0;
  const ep: Record<number, number> = {};
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];

  type EpisodeBody = {
    IDs: { ID: number; AniDB: number; ParentSeries: number };
    Name: string;
    HasCustomName: boolean;
    AniDB?: { ID: number; EpisodeNumber: number };
    Files?: unknown[];
    CrossReferences?: Array<{ ID: number | null; AniDB: number; ED2K: string; FileSize: number; Source: string }>;
  };
  const list = async (query: string, apiKey?: string) => {
    const res = await api('GET', `/api/v3/Episode?${query}`, undefined, apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Total: number; List: EpisodeBody[] };
    return { total: body.Total, ids: body.List.map((e) => e.IDs.AniDB), list: body.List };
  };

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    viewerKey = setup.viewer.key;
    const db = server.services.db.kysely;
    const adminId = (await db.selectFrom('users').select('id').where('id', '<>', setup.viewer.id).executeTakeFirstOrThrow()).id;
    const written = await insertSeries(db, [
      {
        animeId: 301,
        title: 'Lantern Road',
        airDate: '2020-01-05',
        endDate: '2020-03-29',
        episodes: [
          { id: 3001, file: true },
          { id: 3002, file: true, watchedBy: [adminId] },
          { id: 3003 },
          { id: 3004, airDate: '2999-01-01' },
          { id: 3005, file: true, hidden: true },
          { id: 3011, type: 'Special', number: 1 },
          { id: 3021, type: 'Credits', number: 1, file: true },
        ],
      },
      {
        animeId: 302,
        title: 'Night Market',
        airDate: '2021-04-01',
        tags: [{ id: 99, name: 'ecchi' }],
        episodes: [{ id: 3101, file: true }, { id: 3102 }],
      },
    ]);
    lantern = written.get(301)!.seriesId;
    market = written.get(302)!.seriesId;
    for (const row of await db.selectFrom('episodes').select(['id', 'anidb_episode_id']).execute()) ep[row.anidb_episode_id] = row.id;
    await db
      .insertInto('anidb_episodes')
      .values({
        id: 3900,
        anime_id: 301,
        type: 'Trailer',
        number: 1,
        length_seconds: 60,
        air_date: null,
        rating: 450,
        votes: 3,
        description: 'A preview.',
        titles: JSON.stringify([{ language: 'en', value: 'Preview' }]),
      })
      .execute();
    await db
      .insertInto('file_episode_links')
      .values({
        ed2k: 'ABCDEF0123456789ABCDEF0123456789',
        size: 4242,
        anime_id: 301,
        episode_id: 3003,
        percentage: 100,
        ordering: 0,
        source: 'User',
        release_group_id: null,
      })
      .execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('GET Episode', () => {
    it('lists the episodes with files of every visible series, by series, type and number', async () => {
      expect(await list('pageSize=0')).toMatchObject({ total: 4, ids: [3001, 3002, 3021, 3101] });
      expect((await list('pageSize=0', viewerKey)).ids).toEqual([3001, 3002, 3021]);
      const first = await list('');
      expect(first.list[0]).toMatchObject({ IDs: { ID: ep[3001], ParentSeries: lantern, AniDB: 3001 }, Name: 'Episode 1' });
      expect(first.list[0]).not.toHaveProperty('AniDB');
      expect(first.list[0]).not.toHaveProperty('CrossReferences');
      expect(first.list[0]).not.toHaveProperty('Files');
    });

    it('pages from 1 and counts every match in Total', async () => {
      expect(await list('pageSize=2&page=1')).toMatchObject({ total: 4, ids: [3001, 3002] });
      expect(await list('pageSize=2&page=2')).toMatchObject({ total: 4, ids: [3021, 3101] });
      expect(await list('pageSize=2&page=3')).toMatchObject({ total: 4, ids: [] });
    });

    it('applies the missing, unaired, hidden, watched and type filters and the search', async () => {
      expect((await list('pageSize=0&includeMissing=only')).ids).toEqual([3003, 3011, 3102]);
      expect((await list('pageSize=0&includeUnaired=only')).ids).toEqual([3004]);
      expect((await list('pageSize=0&includeHidden=only')).ids).toEqual([3005]);
      expect((await list('pageSize=0&includeWatched=only')).ids).toEqual([3002]);
      expect((await list('pageSize=0&includeWatched=false')).ids).toEqual([3001, 3021, 3101]);
      expect((await list('pageSize=0&type=Credits')).ids).toEqual([3021]);
      expect((await list('pageSize=0&includeMissing=true&type=Special,Credits')).ids).toEqual([3021, 3011]);
      expect((await list('pageSize=0&search=Episode 2')).ids).toEqual([3002]);
      expect((await list('pageSize=0&includeMissing=only', viewerKey)).ids).toEqual([3003, 3011]);
    });

    it('adds AniDB data, files and cross-references only when asked', async () => {
      const [first] = (await list('pageSize=1&includeDataFrom=AniDB&includeFiles=true&includeXRefs=true')).list;
      expect(first.AniDB).toMatchObject({ ID: 3001, EpisodeNumber: 1 });
      expect(first.Files).toHaveLength(1);
      expect(first.CrossReferences).toEqual([
        expect.objectContaining({
          ID: ep[3001],
          AniDB: 3001,
          ED2K: (3001 * 16).toString(16).toUpperCase().padStart(32, '0'),
          FileSize: 100_003_001,
          Source: 'AniDB',
        }),
      ]);
      const missing = (await list('pageSize=1&includeMissing=only&includeXRefs=true')).list[0];
      expect(missing.IDs.AniDB).toBe(3003);
      expect(missing.CrossReferences).toEqual([
        expect.objectContaining({ AniDB: 3003, ED2K: 'ABCDEF0123456789ABCDEF0123456789', Source: 'User' }),
      ]);
    });

    it('rejects bad values with a problem body naming the field', async () => {
      for (const [query, field] of [
        ['includeMissing=maybe', 'includeMissing'],
        ['type=Movie', 'type'],
        ['pageSize=1001', 'pageSize'],
        ['page=0', 'page'],
        ['includeXRefs=sometimes', 'includeXRefs'],
      ]) {
        const res = await api('GET', `/api/v3/Episode?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(JSON.stringify(res.json().errors), query).toContain(field);
      }
    });
  });

  describe('cross-references on the other episode views', () => {
    it('Episode/{id} and Series/{id}/Episode carry CrossReferences (and Files) with includeXRefs / includeFiles', async () => {
      const one = (await api('GET', `/api/v3/Episode/${ep[3002]}?includeXRefs=true&includeFiles=true`)).json() as EpisodeBody;
      expect(one.CrossReferences).toEqual([expect.objectContaining({ ID: ep[3002], AniDB: 3002, FileSize: 100_003_002 })]);
      expect(one.Files).toHaveLength(1);
      expect((await api('GET', `/api/v3/Episode/${ep[3002]}`)).json()).not.toHaveProperty('CrossReferences');
      const page = (await api('GET', `/api/v3/Series/${lantern}/Episode?pageSize=0&includeMissing=true&includeXRefs=true`)).json() as {
        List: EpisodeBody[];
      };
      const byAniDB = new Map(page.List.map((e) => [e.IDs.AniDB, e]));
      expect(byAniDB.get(3001)!.CrossReferences).toHaveLength(1);
      expect(byAniDB.get(3003)!.CrossReferences).toEqual([expect.objectContaining({ Source: 'User', FileSize: 4242 })]);
      expect(byAniDB.get(3011)!.CrossReferences).toEqual([]);
    });
  });

  describe('AniDB episodes', () => {
    it('Episode/AniDB lists every AniDB episode by anime, type and number for admins only', async () => {
      expect((await api('GET', '/api/v3/Episode/AniDB', undefined, viewerKey)).statusCode).toBe(403);
      const all = (await api('GET', '/api/v3/Episode/AniDB?pageSize=0')).json() as { Total: number; List: Array<{ ID: number }> };
      expect(all.Total).toBe(10);
      expect(all.List.map((e) => e.ID)).toEqual([3001, 3002, 3003, 3004, 3005, 3021, 3011, 3900, 3101, 3102]);
      const page = (await api('GET', '/api/v3/Episode/AniDB?pageSize=3&page=2')).json() as { Total: number; List: Array<{ ID: number }> };
      expect(page.Total).toBe(10);
      expect(page.List.map((e) => e.ID)).toEqual([3004, 3005, 3021]);
      const trailers = (await api('GET', '/api/v3/Episode/AniDB?type=Trailer')).json();
      expect(trailers).toMatchObject({ Total: 1, List: [{ ID: 3900, AnimeID: 301, Type: 'Trailer', Title: 'Preview' }] });
      const bad = await api('GET', '/api/v3/Episode/AniDB?type=Movie');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('type');
      expect((await api('GET', '/api/v3/Episode/AniDB?pageSize=-1')).statusCode).toBe(400);
    });

    it('Episode/AniDB/{id} returns the AniDB episode without an access check, 404 text when unknown', async () => {
      const res = await api('GET', '/api/v3/Episode/AniDB/3900', undefined, viewerKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ID: 3900,
        AnimeID: 301,
        Type: 'Trailer',
        EpisodeNumber: 1,
        AirDate: null,
        Title: 'Preview',
        Titles: [{ Name: 'Preview', Language: 'en', Type: 'None', Default: false, Preferred: true, Source: 'AniDB' }],
        Description: 'A preview.',
        Rating: { Value: 4.5, MaxValue: 10, Source: 'AniDB', Votes: 3, Type: null },
      });
      expect((await api('GET', '/api/v3/Episode/AniDB/3101', undefined, viewerKey)).statusCode).toBe(200);
      const missing = await api('GET', '/api/v3/Episode/AniDB/99999');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode.Anidb entry for the given anidbEpisodeID');
      const bad = await api('GET', '/api/v3/Episode/AniDB/abc');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('anidbEpisodeID');
    });

    it('Episode/AniDB/{id}/Episode returns the Shoko episode, with the two 404 texts', async () => {
      const res = await api('GET', '/api/v3/Episode/AniDB/3002/Episode?includeDataFrom=AniDB&includeXRefs=true');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ IDs: { ID: ep[3002], AniDB: 3002 }, AniDB: { ID: 3002 }, CrossReferences: [{ AniDB: 3002 }] });
      const noAniDB = await api('GET', '/api/v3/Episode/AniDB/99999/Episode');
      expect(noAniDB.statusCode).toBe(404);
      expect(noAniDB.body).toBe('No Episode.Anidb entry for the given anidbEpisodeID');
      const noShoko = await api('GET', '/api/v3/Episode/AniDB/3900/Episode');
      expect(noShoko.statusCode).toBe(404);
      expect(noShoko.body).toBe('No Episode entry for the given anidbEpisodeID');
      expect((await api('GET', '/api/v3/Episode/AniDB/3101/Episode', undefined, viewerKey)).statusCode).toBe(403);
    });

    it('Episode/{id}/AniDB returns the AniDB episode of a Shoko episode, 404 and 403 as every episode route', async () => {
      const res = await api('GET', `/api/v3/Episode/${ep[3011]}/AniDB`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ID: 3011, AnimeID: 301, Type: 'Special', EpisodeNumber: 1, Title: 'Episode 1' });
      const missing = await api('GET', '/api/v3/Episode/99999/AniDB');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode entry for the given episodeID');
      const forbidden = await api('GET', `/api/v3/Episode/${ep[3101]}/AniDB`, undefined, viewerKey);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).toBe('Accessing Episode is not allowed for the current user');
      const bad = await api('GET', '/api/v3/Episode/0/AniDB');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('episodeID');
    });
  });

  describe('GET Episode/{id}/Series', () => {
    it('returns the series of the episode', async () => {
      const res = await api('GET', `/api/v3/Episode/${ep[3021]}/Series?includeDataFrom=AniDB`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ IDs: { ID: lantern }, Name: 'Lantern Road', AniDB: { ID: 301 } });
      expect((await api('GET', `/api/v3/Episode/${ep[3101]}/Series`)).json().IDs.ID).toBe(market);
      const missing = await api('GET', '/api/v3/Episode/99999/Series');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode entry for the given episodeID');
      expect((await api('GET', `/api/v3/Episode/${ep[3101]}/Series`, undefined, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('GET Episode/WithNoFiles', () => {
    it('lists episodes without a local file of every series, specials and aired/finished filters on request', async () => {
      const ids = async (query: string, apiKey?: string) => {
        const res = await api('GET', `/api/v3/Episode/WithNoFiles?${query}`, undefined, apiKey);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as { Total: number; List: EpisodeBody[] };
        return { total: body.Total, ids: body.List.map((e) => e.IDs.AniDB), list: body.List };
      };
      expect(await ids('')).toMatchObject({ total: 3, ids: [3003, 3004, 3102] });
      // The viewer's tag restrictions hide Market's episode (Shoko skips the check here; issue 44 does not).
      expect((await ids('', viewerKey)).ids).toEqual([3003, 3004]);
      expect((await ids('includeSpecials=true')).ids).toEqual([3003, 3004, 3011, 3102]);
      expect((await ids('onlyAiredEpisodes=true')).ids).toEqual([3003, 3102]);
      expect((await ids('onlyFinishedSeries=true')).ids).toEqual([3003, 3004]);
      expect(await ids('pageSize=1&page=2')).toMatchObject({ total: 3, ids: [3004] });
      const withXRefs = await ids('pageSize=1&includeXRefs=true');
      expect(withXRefs.list[0].CrossReferences).toEqual([expect.objectContaining({ Source: 'User', AniDB: 3003 })]);
      expect((await ids('pageSize=1')).list[0]).not.toHaveProperty('CrossReferences');
      const bad = await api('GET', '/api/v3/Episode/WithNoFiles?pageSize=5000');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('pageSize');
    });
  });

  describe('POST Episode/{id}/OverrideTitle', () => {
    it('sets and clears the episode title for admins', async () => {
      const url = `/api/v3/Episode/${ep[3001]}/OverrideTitle`;
      expect((await api('POST', url, { Title: 'Nope' }, viewerKey)).statusCode).toBe(403);
      expect((await api('POST', url, { Title: 'The Long Road' })).statusCode).toBe(200);
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}`)).json()).toMatchObject({ Name: 'The Long Road', HasCustomName: true });
      expect((await list('pageSize=0&search=long road')).ids).toEqual([3001]);
      expect((await api('POST', url, { Title: '' })).statusCode).toBe(200);
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}`)).json()).toMatchObject({ Name: 'Episode 1', HasCustomName: false });
      const noTitle = await api('POST', url, {});
      expect(noTitle.statusCode).toBe(400);
      expect(JSON.stringify(noTitle.json().errors)).toContain('Title');
      const missing = await api('POST', '/api/v3/Episode/99999/OverrideTitle', { Title: 'x' });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode entry for the given episodeID');
    });
  });

  describe('episode images and TMDB ids', () => {
    const img: Record<string, number> = {};
    type ImageBody = { ID: number; Source: string; Type: string; Preferred: boolean; Disabled: boolean };
    const ids = (list: ImageBody[] | undefined) => (list ?? []).map((i) => i.ID);

    beforeAll(async () => {
      // 3001 is linked to TMDB episode 8001 (two thumbnails) and TMDB movie 9001 (a poster, a backdrop and a disabled
      // logo); the thumbnail of the unlinked TMDB episode 8002 must not show up.
      const db = server.services.db.kysely;
      await db
        .insertInto('xref_anidb_tmdb_episode')
        .values([
          { anime_id: 301, anidb_episode_id: 3001, show_id: 7100, tmdb_episode_id: 8001, ordering: 0, rating: 'UserVerified' },
          { anime_id: 301, anidb_episode_id: 3002, show_id: 7100, tmdb_episode_id: 0, ordering: 0, rating: 'UserVerified' },
        ])
        .execute();
      await db
        .insertInto('xref_anidb_tmdb_movie')
        .values({ anime_id: 301, anidb_episode_id: 3001, movie_id: 9001, source: 'User' })
        .execute();
      await seedTmdbShows(server, [
        {
          id: 7100,
          title: 'Lantern Road',
          original_title: 'Chouchin Michi',
          vote_average: 7,
          vote_count: 10,
          first_aired_at: '2020-01-05',
          last_aired_at: '2020-03-29',
        },
      ]);
      await seedTmdbEpisodes(server, [
        {
          id: 8001,
          show_id: 7100,
          season_id: 7101,
          season_number: 1,
          episode_number: 1,
          title: 'The First Lantern',
          aired_at: '2020-01-05',
          vote_average: 7,
          vote_count: 3,
        },
      ]);
      await seedTmdbMovies(server, [
        {
          id: 9001,
          title: 'Lantern Road: The Movie',
          original_title: 'Chouchin Michi Gekijouban',
          vote_average: 7,
          vote_count: 10,
          runtime_minutes: 90,
          released_at: '2021-01-01',
        },
      ]);
      const image = async (
        name: string,
        parent_type: 'Episode' | 'Movie',
        parent_id: number,
        image_type: 'Poster' | 'Backdrop' | 'Logo' | 'Thumbnail',
        vote: number,
      ) => {
        img[name] = await seedTmdbImage(server, {
          parent_type,
          parent_id,
          image_type,
          file_path: `/${name}.jpg`,
          width: 1280,
          height: 720,
          vote_average: vote,
          vote_count: 4,
        });
      };
      await image('thumbLow', 'Episode', 8001, 'Thumbnail', 5);
      await image('thumbHigh', 'Episode', 8001, 'Thumbnail', 7);
      await image('otherThumb', 'Episode', 8002, 'Thumbnail', 9);
      await image('poster', 'Movie', 9001, 'Poster', 6);
      await image('backdrop', 'Movie', 9001, 'Backdrop', 6);
      await image('logo', 'Movie', 9001, 'Logo', 6);
      await db.insertInto('disabled_images').values({ source: 'TMDB', image_type: 'Logo', image_id: img.logo }).execute();
    });

    it('carries the linked TMDB episodes and movies with includeDataFrom=TMDB', async () => {
      const one = (await api('GET', `/api/v3/Episode/${ep[3001]}?includeDataFrom=TMDB`)).json();
      expect(one.TMDB.Episodes).toEqual([expect.objectContaining({ ID: 8001, ShowID: 7100, Title: 'The First Lantern' })]);
      expect(one.TMDB.Movies).toEqual([expect.objectContaining({ ID: 9001, Title: 'Lantern Road: The Movie' })]);
      const [listed] = (await list('pageSize=1&includeDataFrom=TMDB')).list as Array<EpisodeBody & { TMDB: { Episodes: unknown[] } }>;
      expect(listed.TMDB.Episodes).toHaveLength(1);
      expect((await api('GET', `/api/v3/Episode/${ep[3002]}?includeDataFrom=TMDB`)).json().TMDB).toEqual({ Episodes: [], Movies: [] });
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}`)).json()).not.toHaveProperty('TMDB');
    });

    it('shows the linked TMDB episodes, shows and movies in IDs.TMDB of every episode model', async () => {
      const one = (await api('GET', `/api/v3/Episode/${ep[3001]}`)).json() as EpisodeBody & { IDs: { TMDB: unknown } };
      expect(one.IDs.TMDB).toEqual({ Episode: [8001], Movie: [9001], Show: [7100] });
      const [listed] = (await list('pageSize=1')).list as Array<EpisodeBody & { IDs: { TMDB: unknown } }>;
      expect(listed.IDs).toMatchObject({ AniDB: 3001, TMDB: { Episode: [8001], Movie: [9001], Show: [7100] } });
      // An explicit "no link" row is no link.
      expect((await api('GET', `/api/v3/Episode/${ep[3002]}`)).json().IDs.TMDB).toEqual({ Episode: [], Movie: [], Show: [] });
    });

    it('lists every image of the episode by type, thumbnails first by rating, disabled ones only on request', async () => {
      const res = await api('GET', `/api/v3/Episode/${ep[3001]}/Images`);
      expect(res.statusCode).toBe(200);
      const lists = res.json() as Record<string, ImageBody[]>;
      expect(ids(lists.Thumbnails)).toEqual([img.thumbHigh, img.thumbLow]);
      expect(lists.Thumbnails[0]).toMatchObject({ Source: 'TMDB', Type: 'Thumbnail', Preferred: false, Disabled: false, Width: 1280 });
      expect(ids(lists.Posters)).toEqual([img.poster]);
      expect(ids(lists.Backdrops)).toEqual([img.backdrop]);
      expect(lists.Logos).toEqual([]);
      expect(lists.Banners).toEqual([]);
      const withDisabled = (await api('GET', `/api/v3/Episode/${ep[3001]}/Images?includeDisabled=true`)).json() as Record<
        string,
        ImageBody[]
      >;
      expect(withDisabled.Logos).toEqual([expect.objectContaining({ ID: img.logo, Disabled: true })]);
      expect((await api('GET', `/api/v3/Episode/${ep[3002]}/Images`)).json()).toEqual({
        Posters: [],
        Backdrops: [],
        Banners: [],
        Logos: [],
        Thumbnails: [],
      });
      const missing = await api('GET', '/api/v3/Episode/99999/Images');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode entry for the given episodeID');
      expect((await api('GET', `/api/v3/Episode/${ep[3101]}/Images`, undefined, viewerKey)).statusCode).toBe(403);
    });

    it('answers the main image of a type (aliases too), 204 when there is none and a 404 problem for other types', async () => {
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}/Images/Thumbnail`)).json()).toMatchObject({ ID: img.thumbHigh });
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}/Images/thumb`)).json()).toMatchObject({ ID: img.thumbHigh });
      expect((await api('GET', `/api/v3/Episode/${ep[3001]}/Images/Fanart`)).json()).toMatchObject({ ID: img.backdrop });
      const none = await api('GET', `/api/v3/Episode/${ep[3001]}/Images/Banner`);
      expect(none.statusCode).toBe(204);
      expect(none.body).toBe('');
      const character = await api('GET', `/api/v3/Episode/${ep[3001]}/Images/Character`);
      expect(character.statusCode).toBe(404);
      expect(character.json()).toMatchObject({ status: 404, title: 'Not Found' });
    });

    it('sets, shows and unsets the preferred image (admin only), refusing unknown and disabled images', async () => {
      const url = `/api/v3/Episode/${ep[3001]}/Images/Thumbnail`;
      expect((await api('PUT', url, { ID: img.thumbLow, Source: 'TMDB' }, viewerKey)).statusCode).toBe(403);
      const set = await api('PUT', url, { ID: img.thumbLow, Source: 'tmdb' });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ ID: img.thumbLow, Type: 'Thumbnail', Source: 'TMDB', Preferred: true });
      expect((await api('GET', url)).json()).toMatchObject({ ID: img.thumbLow, Preferred: true });
      const lists = (await api('GET', `/api/v3/Episode/${ep[3001]}/Images`)).json() as Record<string, ImageBody[]>;
      expect(lists.Thumbnails.map((i) => [i.ID, i.Preferred])).toEqual([
        [img.thumbHigh, false],
        [img.thumbLow, true],
      ]);
      const episode = (await api('GET', `/api/v3/Episode/${ep[3001]}`)).json() as { Images: Record<string, ImageBody[]> };
      expect(ids(episode.Images.Thumbnails)).toEqual([img.thumbLow]);
      expect(ids(episode.Images.Posters)).toEqual([img.poster]);
      expect(episode.Images.Logos).toEqual([]);

      const unknown = await api('PUT', url, { ID: img.otherThumb, Source: 'TMDB' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors.Body).toEqual(['Invalid image id for selected source.']);
      const disabled = await api('PUT', `/api/v3/Episode/${ep[3001]}/Images/Logo`, { ID: img.logo, Source: 'TMDB' });
      expect(disabled.statusCode).toBe(400);
      expect(disabled.json().errors.Body).toEqual(['Image is disabled.']);
      const badSource = await api('PUT', url, { ID: img.thumbLow, Source: 'Nowhere' });
      expect(badSource.statusCode).toBe(400);
      expect(badSource.json().errors.Source).toEqual(["The value 'Nowhere' is not valid for Source."]);
      expect((await api('PUT', `/api/v3/Episode/${ep[3001]}/Images/Avatar`, { ID: img.thumbLow, Source: 'TMDB' })).statusCode).toBe(404);

      expect((await api('DELETE', `/api/v3/Episode/${ep[3001]}/Images/Thumb`, undefined, viewerKey)).statusCode).toBe(403);
      expect((await api('DELETE', `/api/v3/Episode/${ep[3001]}/Images/Thumb`)).statusCode).toBe(204);
      expect((await api('GET', url)).json()).toMatchObject({ ID: img.thumbHigh, Preferred: false });
      const again = await api('DELETE', url);
      expect(again.statusCode).toBe(400);
      expect(again.json().errors).toHaveProperty('Body');
    });
  });
});
