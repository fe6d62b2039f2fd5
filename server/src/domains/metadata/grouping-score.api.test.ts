import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { inventedAnime } from '../../test/invented-anime.js';
import type { AnimeMetadata } from './anime.store.js';

/**
 * A movie that opens a story, then two TV seasons: the movie aired first, but the first TV season scores highest
 * (TV 3 + 2 for its sequel, against the movie's 2 × 2 for the chain after it).
 */
function storyChain(base: number, title: string): Record<number, AnimeMetadata> {
  const [movie, first, second] = [base, base + 1, base + 2];
  const anime = (id: number, name: string, type: string, airDate: string, relations: AnimeMetadata['relations']) => ({
    ...inventedAnime(id, name, [id * 10, id * 10 + 1], relations),
    type,
    airDate,
  });
  return {
    [movie]: anime(movie, `${title} Prologue`, 'Movie', '2010-04-01', [{ animeId: first, type: 'Sequel' }]),
    [first]: anime(first, title, 'TV', '2011-01-08', [
      { animeId: movie, type: 'Prequel' },
      { animeId: second, type: 'Sequel' },
    ]),
    [second]: anime(second, `${title} Second Season`, 'TV', '2012-07-02', [{ animeId: first, type: 'Prequel' }]),
  };
}

describe('auto-grouping: the main series by air date or by score', () => {
  let server: TestServer;
  let key: string;
  const anime: Record<number, AnimeMetadata> = {
    ...storyChain(9400, 'Tsuki no Ressha'),
    ...storyChain(9500, 'Sabaku no Toshokan'),
    ...storyChain(9600, 'Kaigara Koukou'),
  };

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const importAnime = async (...ids: number[]) => {
    for (const id of ids)
      expect((await api('POST', `/api/v3/Series/AniDB/${id}/Refresh?createSeriesEntry=true&immediate=true`)).statusCode).toBe(200);
  };
  const seriesOf = async (animeId: number) => (await api('GET', `/api/v3/Series/AniDB/${animeId}/Series`)).json();
  const groupOf = async (animeId: number) => (await api('GET', `/api/v3/Group/${(await seriesOf(animeId)).IDs.ParentGroup}`)).json();
  const setSettings = async (changes: Record<string, unknown>) => {
    const patch = Object.entries(changes).map(([path, value]) => ({ op: 'replace', path: `/${path}`, value }));
    const res = await api('PATCH', '/api/v3/Settings', patch);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    server = await createTestServer({
      services: {
        animeSource: {
          getAnime: async (id) => {
            if (!anime[id]) throw new Error(`unknown anime ${id}`);
            return anime[id];
          },
        },
      },
    });
    key = await completeFirstRun(server);
    // Settings are validated as a whole: the AniDB login must be there (nothing here talks to AniDB).
    await server.services.settings.update((s) => {
      s.AniDb.Username = 'tester';
      s.AniDb.Password = 'secret1';
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('without the score rule the earliest aired series leads, whatever the import order', async () => {
    await setSettings({ AutoGroupSeries: true, AutoGroupSeriesUseScoreAlgorithm: false });
    await importAnime(9402, 9401, 9400);
    const group = await groupOf(9400);
    expect((await groupOf(9401)).IDs.ID).toBe(group.IDs.ID);
    expect((await groupOf(9402)).IDs.ID).toBe(group.IDs.ID);
    expect(group.Name).toBe('Tsuki no Ressha Prologue');
    expect(group.IDs.MainSeries).toBe((await seriesOf(9400)).IDs.ID);
  });

  it('with the score rule the best-scoring series names and leads the group', async () => {
    await setSettings({ AutoGroupSeriesUseScoreAlgorithm: true });
    await importAnime(9500, 9501, 9502);
    const group = await groupOf(9500);
    expect((await groupOf(9502)).IDs.ID).toBe(group.IDs.ID);
    expect((await groupOf(9501)).IDs.ID).toBe(group.IDs.ID);
    const main = await seriesOf(9501);
    expect(group.Name).toBe('Sabaku no Toshokan');
    expect(group.Description).toBe('The story of Sabaku no Toshokan.');
    expect(group.IDs.MainSeries).toBe(main.IDs.ID);
    expect((await api('GET', `/api/v3/Group/${group.IDs.ID}/MainSeries`)).json().IDs.ID).toBe(main.IDs.ID);
    // The natural order of the group's series starts with its main series.
    const listed = (await api('GET', `/api/v3/Group/${group.IDs.ID}/Series`)).json();
    expect(listed[0].IDs.AniDB).toBe(9501);
    // The earlier group keeps the main it was given.
    expect((await groupOf(9400)).Name).toBe('Tsuki no Ressha Prologue');
  });

  it('a preferred series still wins over the score', async () => {
    const group = await groupOf(9500);
    const movie = await seriesOf(9500);
    const res = await api('PATCH', `/api/v3/Group/${group.IDs.ID}`, [{ op: 'replace', path: '/PreferredSeriesID', value: movie.IDs.ID }]);
    expect(res.statusCode).toBe(200);
    const after = await groupOf(9500);
    expect(after.IDs.MainSeries).toBe(movie.IDs.ID);
    expect(after.Name).toBe('Sabaku no Toshokan Prologue');
  });

  it('excluding movies keeps the movie in a group of its own; turning auto-grouping off groups nothing', async () => {
    await setSettings({ AutoGroupSeriesRelationExclusions: ['movie'] });
    await importAnime(9601, 9600);
    expect((await groupOf(9600)).IDs.ID).not.toBe((await groupOf(9601)).IDs.ID);
    expect((await groupOf(9600)).Name).toBe('Kaigara Koukou Prologue');
    await setSettings({ AutoGroupSeries: false, AutoGroupSeriesRelationExclusions: [] });
    await importAnime(9602);
    expect((await groupOf(9602)).IDs.ID).not.toBe((await groupOf(9601)).IDs.ID);
  });
});
