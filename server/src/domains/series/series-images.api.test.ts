import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seedTmdbImage, seedTmdbShows } from '../../test/seed-tmdb.js';
import { seriesTestServer } from './test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * "Picture Book" (anime 501) has an AniDB poster and is linked to TMDB show 7000, which has two posters (rated 8 and 6),
 * a backdrop, a logo and a disabled backdrop; a poster of an unlinked show (7001) must not show up. "Secret Pictures" (502) is restricted for the viewer.
 */
describe('series images API', () => {
  let server: TestServer;
  let viewerKey: string;
  let book = 0;
  let secret = 0;
  const img: Record<string, number> = {};
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  const ids = (list: Array<{ Source: string; ID: number }>) => list.map((i) => `${i.Source}:${i.ID}`);

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    const viewer = setup.viewer;
    viewerKey = viewer.key;
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      { animeId: 501, title: 'Picture Book' },
      { animeId: 502, title: 'Secret Pictures', tags: [{ id: 99, name: 'ecchi' }] },
    ]);
    book = written.get(501)!.seriesId;
    secret = written.get(502)!.seriesId;
    await db.insertInto('xref_anidb_tmdb_show').values({ anime_id: 501, show_id: 7000, source: 'User' }).execute();
    const image = async (
      name: string,
      parent_type: 'Show' | 'Season',
      parent_id: number,
      image_type: 'Poster' | 'Backdrop' | 'Logo',
      vote: number,
    ) => {
      img[name] = await seedTmdbImage(server, {
        parent_type,
        parent_id,
        image_type,
        file_path: `/${name}.jpg`,
        language: 'en',
        width: 500,
        height: 750,
        vote_average: vote,
        vote_count: 10,
      });
    };
    await seedTmdbShows(server, [
      {
        id: 7000,
        title: 'Picture Book',
        original_title: 'Ehon',
        tvdb_id: 4242,
        vote_average: 7.5,
        vote_count: 10,
        first_aired_at: '2020-01-01',
        last_aired_at: '2020-03-01',
      },
    ]);
    await image('posterLow', 'Show', 7000, 'Poster', 6);
    await image('posterHigh', 'Show', 7000, 'Poster', 8);
    await image('backdrop', 'Show', 7000, 'Backdrop', 5);
    await image('backdropOff', 'Show', 7000, 'Backdrop', 4);
    await image('logo', 'Show', 7000, 'Logo', 5);
    await image('otherShow', 'Show', 7001, 'Poster', 9);
    await db.insertInto('disabled_images').values({ source: 'TMDB', image_type: 'Backdrop', image_id: img.backdropOff }).execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists every image of the series with TMDB metadata and hides disabled ones unless asked', async () => {
    const res = await api('GET', `/api/v3/Series/${book}/Images`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(ids(body.Posters)).toEqual(['AniDB:501', `TMDB:${img.posterHigh}`, `TMDB:${img.posterLow}`]);
    expect(ids(body.Backdrops)).toEqual([`TMDB:${img.backdrop}`]);
    expect(ids(body.Logos)).toEqual([`TMDB:${img.logo}`]);
    expect(body.Banners).toEqual([]);
    expect(body).not.toHaveProperty('Thumbnails');
    expect(body.Posters[1]).toMatchObject({
      Type: 'Poster',
      Source: 'TMDB',
      LanguageCode: 'en',
      Width: 500,
      Height: 750,
      Preferred: false,
      Disabled: false,
      CommunityRating: { Value: 8, MaxValue: 10, Source: 'TMDB', Votes: 10, Type: 'User' },
    });
    const all = (await api('GET', `/api/v3/Series/${book}/Images?includeDisabled=true`)).json();
    expect(ids(all.Backdrops)).toEqual([`TMDB:${img.backdrop}`, `TMDB:${img.backdropOff}`]);
    expect(all.Backdrops[1].Disabled).toBe(true);
    expect((await api('GET', `/api/v3/Series/${secret}/Images`, undefined, viewerKey)).statusCode).toBe(403);
  });

  it('sets, reads and unsets the preferred image, and the series summary shows it', async () => {
    expect((await api('GET', `/api/v3/Series/${book}/Images/Poster`)).json()).toMatchObject({ Source: 'AniDB', ID: 501 });
    const set = await api('PUT', `/api/v3/Series/${book}/Images/Poster`, { ID: img.posterLow, Source: 'TMDB' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ ID: img.posterLow, Source: 'TMDB', Preferred: true });
    const list = (await api('GET', `/api/v3/Series/${book}/Images`)).json();
    expect(list.Posters.filter((p: { Preferred: boolean }) => p.Preferred).map((p: { ID: number }) => p.ID)).toEqual([img.posterLow]);
    expect((await api('GET', `/api/v3/Series/${book}/Images/Poster`)).json().ID).toBe(img.posterLow);
    const summary = (await api('GET', `/api/v3/Series/${book}`)).json();
    expect(ids(summary.Images.Posters)).toEqual([`TMDB:${img.posterLow}`]);
    expect(ids(summary.Images.Backdrops)).toEqual([`TMDB:${img.backdrop}`]);

    expect((await api('PUT', `/api/v3/Series/${book}/Images/Fanart`, { ID: img.backdrop, Source: 'TMDB' })).json()).toMatchObject({
      Type: 'Backdrop',
      Preferred: true,
    });
    expect((await api('DELETE', `/api/v3/Series/${book}/Images/Poster`)).statusCode).toBe(204);
    expect((await api('DELETE', `/api/v3/Series/${book}/Images/Poster`)).statusCode).toBe(400);
    expect((await api('GET', `/api/v3/Series/${book}/Images/Poster`)).json()).toMatchObject({ Source: 'AniDB', ID: 501 });
  });

  it('fills the TMDB ids and, with includeDataFrom=TMDB, the linked shows of the series', async () => {
    const plain = (await api('GET', `/api/v3/Series/${book}`)).json();
    expect(plain.IDs).toMatchObject({ TMDB: { Show: [7000], Movie: [] }, TvDB: [4242], IMDB: [] });
    expect(plain).not.toHaveProperty('TMDB');
    const full = (await api('GET', `/api/v3/Series/${book}?includeDataFrom=TMDB`)).json();
    expect(full.TMDB.Movies).toEqual([]);
    expect(full.TMDB.Shows).toHaveLength(1);
    expect(full.TMDB.Shows[0]).toMatchObject({ ID: 7000, Title: 'Picture Book', TvdbID: 4242 });
  });

  it('validates the image type, the image id and the caller', async () => {
    const badType = await api('PUT', `/api/v3/Series/${book}/Images/Character`, { ID: 1, Source: 'AniDB' });
    expect(badType.statusCode).toBe(400);
    expect(badType.body).toBe('Invalid image type for series.');
    const foreign = await api('PUT', `/api/v3/Series/${book}/Images/Poster`, { ID: img.otherShow, Source: 'TMDB' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.Body).toEqual(['Invalid image id for selected source.']);
    const off = await api('PUT', `/api/v3/Series/${book}/Images/Backdrop`, { ID: img.backdropOff, Source: 'TMDB' });
    expect(off.json().errors.Body).toEqual(['Image is disabled.']);
    const badSource = await api('PUT', `/api/v3/Series/${book}/Images/Poster`, { ID: 501, Source: 'Nowhere' });
    expect(badSource.statusCode).toBe(400);
    expect(badSource.json().errors.Source).toEqual(["The value 'Nowhere' is not valid for Source."]);
    expect((await api('PUT', `/api/v3/Series/${book}/Images/Poster`, { ID: 501, Source: 'AniDB' }, viewerKey)).statusCode).toBe(403);
    expect((await api('GET', `/api/v3/Series/${book}/Images/Logo`)).json().ID).toBe(img.logo);
    expect((await api('GET', `/api/v3/Series/${book}/Images/Banner`)).body).toBe('No default image for type.');
  });
});
