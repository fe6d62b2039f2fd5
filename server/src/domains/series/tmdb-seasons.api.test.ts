import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seedTmdbEpisodes, seedTmdbImage, seedTmdbSeasons, seedTmdbShows } from '../../test/seed-tmdb.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from './test-support.js';

/**
 * Invented data: "Harbor Lights" (anime 501) has episodes linked to TMDB show 7000 — two into season 1 (aired on
 * Mondays in January 2020), one into season 2 (a Thursday in April 2020), one explicitly unlinked. Season 0 of the show
 * is stored but not linked. "Quiet Pond" (502) has no TMDB links; "Secret Garden" (503) is restricted for the viewer.
 */
describe('GET Series/{id}/TMDB/Season', () => {
  let server: TestServer;
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  let viewerKey: string;
  let posterId = 0;
  const id: Record<number, number> = {};

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    viewerKey = setup.viewer.key;
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      { animeId: 501, title: 'Harbor Lights', episodes: [{ id: 5001 }, { id: 5002 }, { id: 5003 }, { id: 5004 }] },
      { animeId: 502, title: 'Quiet Pond', episodes: [{ id: 5101 }] },
      { animeId: 503, title: 'Secret Garden', tags: [{ id: 99, name: 'ecchi' }], episodes: [{ id: 5201 }] },
    ]);
    for (const [animeId, w] of written) id[animeId] = w.seriesId;
    const stamp = '2024-05-01T10:00:00.000Z';
    const stored = { created_at: stamp, updated_at: stamp };
    await seedTmdbShows(server, [
      {
        id: 7000,
        title: 'Harbor Lights',
        original_title: 'Minato no Akari',
        vote_average: 7.5,
        vote_count: 10,
        first_aired_at: '2020-01-06',
        last_aired_at: '2020-04-09',
        ...stored,
      },
    ]);
    const season = (sid: number, number: number, title: string, overview: string) => ({
      id: sid,
      show_id: 7000,
      season_number: number,
      title,
      overview,
      episode_count: 9,
      ...stored,
    });
    await seedTmdbSeasons(server, [
      season(70, 0, 'Specials', ''),
      season(71, 1, 'Season 1', 'The first season.'),
      season(72, 2, 'Season 2', ''),
    ]);
    const episode = (eid: number, seasonId: number, seasonNumber: number, number: number, airedAt: string) => ({
      id: eid,
      show_id: 7000,
      season_id: seasonId,
      season_number: seasonNumber,
      episode_number: number,
      aired_at: airedAt,
      ...stored,
    });
    await seedTmdbEpisodes(server, [
      episode(700, 70, 0, 1, '2019-12-30'),
      episode(701, 71, 1, 1, '2020-01-06'),
      episode(702, 71, 1, 2, '2020-01-13'),
      episode(711, 72, 2, 1, '2020-04-09'),
    ]);
    const link = (anidbEpisode: number, tmdbEpisode: number) => ({
      anime_id: 501,
      anidb_episode_id: anidbEpisode,
      show_id: tmdbEpisode ? 7000 : 0,
      tmdb_episode_id: tmdbEpisode,
      ordering: 0,
      rating: 'UserVerified',
    });
    await db
      .insertInto('xref_anidb_tmdb_episode')
      .values([link(5001, 701), link(5002, 702), link(5003, 711), link(5004, 0)])
      .execute();
    posterId = await seedTmdbImage(server, {
      parent_type: 'Season',
      parent_id: 71,
      image_type: 'Poster',
      file_path: '/season1.jpg',
      language: 'en',
      width: 680,
      height: 1000,
      vote_average: 5,
      vote_count: 2,
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the seasons reached through the episode links, by show and season number, without details by default', async () => {
    const res = await api('GET', `/api/v3/Series/${id[501]}/TMDB/Season`);
    expect(res.statusCode, res.body).toBe(200);
    const seasons = res.json();
    expect(seasons).toEqual([
      {
        ID: '71',
        ShowID: 7000,
        AlternateOrderingID: '7000',
        Title: 'Season 1',
        Overview: 'The first season.',
        SeasonNumber: 1,
        EpisodeCount: 2,
        HiddenEpisodeCount: 0,
        IsLocked: false,
        CreatedAt: '2024-05-01T10:00:00.000Z',
        LastUpdatedAt: '2024-05-01T10:00:00.000Z',
      },
      expect.objectContaining({ ID: '72', SeasonNumber: 2, Title: 'Season 2', EpisodeCount: 1 }),
    ]);
  });

  it('adds the requested details (repeated or comma-separated, any case) and skips unknown ones', async () => {
    const res = await api(
      'GET',
      `/api/v3/Series/${id[501]}/TMDB/Season?include=images,DaysOfWeek&include=YearlySeasons&include=Titles&include=Bogus`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [first, second] = res.json();
    expect(first.Images.Posters).toEqual([
      expect.objectContaining({ ID: posterId, Type: 'Poster', Source: 'TMDB', Width: 680, Height: 1000 }),
    ]);
    expect(first.Images.Backdrops).toEqual([]);
    expect(first.DaysOfWeek).toEqual(['Monday']);
    expect(first.YearlySeasons).toEqual([{ Year: 2020, AnimeSeason: 'Winter' }]);
    expect(first.Titles[0]).toMatchObject({ Name: 'Season 1', Source: 'TMDB' });
    expect(first).not.toHaveProperty('Overviews');
    expect(first).not.toHaveProperty('Cast');
    expect(second.Images.Posters).toEqual([]);
    expect(second.DaysOfWeek).toEqual(['Thursday']);
    expect(second.YearlySeasons).toEqual([{ Year: 2020, AnimeSeason: 'Spring' }]);
  });

  it('answers an empty list for a series without TMDB episode links', async () => {
    const res = await api('GET', `/api/v3/Series/${id[502]}/TMDB/Season`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('answers the TMDB texts for unknown and hidden series and 400 for a bad id', async () => {
    const missing = await api('GET', '/api/v3/Series/99999/TMDB/Season');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('No TMDB.Show entry for the given seriesID');
    const hidden = await api('GET', `/api/v3/Series/${id[503]}/TMDB/Season`, undefined, viewerKey);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.body).toBe('Accessing TMDB.Show is not allowed for the current user');
    expect((await api('GET', `/api/v3/Series/${id[501]}/TMDB/Season`, undefined, viewerKey)).statusCode).toBe(200);
    const bad = await api('GET', '/api/v3/Series/0/TMDB/Season');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('seriesID');
  });
});
