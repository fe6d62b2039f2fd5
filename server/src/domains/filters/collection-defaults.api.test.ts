import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter, ListResult } from '@shoko-ts/contract';
import { SCRIPT_RENAMER_DEFAULT_SETTINGS } from '@shoko-ts/contract';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';

/** The day `days` ago (negative: ahead), as AniDB dates are stored. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type Letter = 'A' | 'B' | 'C' | 'D' | 'E';

/**
 * What a new collection starts with (issue 46): Shoko's preset filters, the Years / Seasons / Tags directories whose
 * sub-filters follow the collection, the starter custom tags and the default renamer config; each preset run on an
 * invented five-series collection, and what a user edits or deletes kept across a restart.
 */
/**
 * Series written straight into the database, as the job that imports them would: its end tells the server the
 * collection changed (kept answers and filter Sizes are counted again).
 */
const jobEnded = (server: TestServer) => server.services.bus.emit('job:finished', { type: 'TestWrite' });

describe('what a new collection starts with', () => {
  let server: TestServer;
  let key: string;
  const series = {} as Record<Letter, number>;
  const groups = {} as Record<Letter, number>;

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const json = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await api(method, url, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };
  const topLevel = () => json<ListResult<Filter>>('GET', '/api/v3/Filter?includeEmpty=true&pageSize=0&withConditions=true');
  const presetId = async (name: string) => (await topLevel()).List.find((f) => f.Name === name)!.IDs.ID;
  const groupLetters = (ids: number[]) => ids.map((id) => (Object.entries(groups).find(([, g]) => g === id)?.[0] ?? `?${id}`) as Letter);
  const seriesLetters = (ids: number[]) => ids.map((id) => (Object.entries(series).find(([, s]) => s === id)?.[0] ?? `?${id}`) as Letter);
  /** The groups a saved filter holds, as letters in no particular order. */
  const groupsOf = async (filterId: number) =>
    groupLetters(
      (await json<ListResult<{ IDs: { ID: number } }>>('GET', `/api/v3/Filter/${filterId}/Group?pageSize=0`)).List.map((g) => g.IDs.ID),
    ).sort();
  const seriesOf = async (filterId: number) =>
    seriesLetters(await json<number[]>('GET', `/api/v3/Filter/${filterId}/Series/OnlyIDs`)).sort();

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('on a fresh server', () => {
    it("lists Shoko's presets and the three computed directories with their expressions and sortings", async () => {
      const list = await topLevel();
      const byName = Object.fromEntries(list.List.map((f) => [f.Name, f]));
      expect(list.List.map((f) => f.Name)).toEqual([
        'All',
        'Continue Watching',
        'Favorites',
        'Missing Episodes',
        'Missing Links',
        'Missing Votes',
        'Newly Added Series',
        'Newly Airing Series',
        'Recently Watched',
        'Seasons',
        'Tags',
        'Years',
      ]);
      const shape = (f: Filter) => [f.IsLocked, f.IsDirectory, f.IsHidden, f.ApplyAtSeriesLevel, 'ParentFilter' in f.IDs];
      expect(shape(byName.All)).toEqual([true, false, false, false, false]);
      expect(byName.All.Expression).toBeUndefined();
      expect(byName.All.Sorting).toEqual({ Type: 'Name', IsInverted: false });
      expect(shape(byName['Continue Watching'])).toEqual([true, false, false, false, false]);
      expect(byName['Continue Watching']).toMatchObject({
        Expression: { Type: 'And', Left: { Type: 'HasWatchedEpisodes' }, Right: { Type: 'HasUnwatchedEpisodes' } },
        Sorting: { Type: 'LastWatchedDate', IsInverted: true },
      });
      for (const name of ['Favorites', 'Missing Episodes', 'Newly Added Series', 'Newly Airing Series', 'Recently Watched'])
        expect(shape(byName[name]), name).toEqual([false, false, false, false, false]);
      for (const name of ['Missing Votes', 'Missing Links']) expect(shape(byName[name]), name).toEqual([false, false, false, true, false]);
      expect(byName.Favorites).toMatchObject({ Expression: { Type: 'IsFavorite' }, Sorting: { Type: 'Name', IsInverted: false } });
      expect(byName['Missing Episodes']).toMatchObject({
        Expression: { Type: 'HasMissingEpisodesCollecting' },
        Sorting: { Type: 'MissingEpisodeCollectingCount', IsInverted: true },
      });
      const within = (selector: string, days: number) => ({
        Type: 'DateGreaterThanEquals',
        Left: { Type: 'DateAdd', Left: { Type: selector }, Parameter: `${days}:00:00:00.0000000` },
        Right: { Type: 'Today' },
      });
      expect(byName['Newly Added Series']).toMatchObject({
        Expression: within('LastAddedDate', 10),
        Sorting: { Type: 'LastAddedDate', IsInverted: true },
      });
      expect(byName['Newly Airing Series']).toMatchObject({
        Expression: within('LastAirDate', 30),
        Sorting: { Type: 'LastAirDate', IsInverted: true },
      });
      expect(byName['Recently Watched']).toMatchObject({
        Expression: { Type: 'And', Left: { Type: 'HasWatchedEpisodes' }, Right: within('LastWatchedDate', 10) },
        Sorting: { Type: 'LastWatchedDate', IsInverted: true },
      });
      const not = (Type: string) => ({ Type: 'Not', Left: { Type } });
      expect(byName['Missing Votes']).toMatchObject({
        Expression: {
          Type: 'And',
          Left: { Type: 'And', Left: not('HasUnwatchedEpisodes'), Right: not('HasMissingEpisodes') },
          Right: not('HasUserVotes'),
        },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      expect(byName['Missing Links']).toMatchObject({
        Expression: { Type: 'MissingTmdbLink' },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      for (const name of ['Years', 'Seasons', 'Tags']) {
        expect(shape(byName[name]), name).toEqual([true, true, false, false, false]);
        expect(byName[name].Expression).toBeUndefined();
        expect(byName[name].Sorting).toBeUndefined();
        // An empty collection: no year, season or tag yet.
        expect(byName[name].Size, name).toBe(0);
      }
      // Without includeEmpty, the empty presets and the childless directories stay out (contract §7.1).
      expect((await json<ListResult<Filter>>('GET', '/api/v3/Filter?pageSize=0')).List).toEqual([]);
    });

    it('has the starter custom tags with their descriptions', async () => {
      const tags = (await json<ListResult<{ Name: string; Description: string }>>('GET', '/api/v3/Tag/User?pageSize=0')).List;
      expect(tags.map((t) => [t.Name, t.Description])).toEqual(
        expect.arrayContaining([
          ['Dropped', 'Started watching this series, but have since dropped it'],
          ['Pinned', 'Pinned this series for whatever reason you like'],
          ['Ongoing', 'This series does not have an end date'],
          ['Waiting for Series Completion', 'Will start watching this once this series is finished'],
          ['Waiting for Blu-ray Completion', 'Will start watching this once all episodes are available in Blu-Ray'],
        ]),
      );
      expect(tags).toHaveLength(5);
    });

    it('has the default renamer config: the script renamer with its default settings', async () => {
      const configs = await json<Array<{ Name: string; RenamerID: string; Settings: unknown }>>('GET', '/api/v3/Renamer/Config');
      expect(configs).toEqual([
        expect.objectContaining({ Name: 'Default', RenamerID: 'WebAOM', Settings: SCRIPT_RENAMER_DEFAULT_SETTINGS }),
      ]);
      expect(
        (await json<{ Plugins: { Renamer: { DefaultRenamer: string } } }>('GET', '/api/v3/Settings')).Plugins.Renamer.DefaultRenamer,
      ).toBe('Default');
    });
  });

  describe('on a built collection', () => {
    beforeAll(async () => {
      const db = server.services.db.kysely;
      const written = await insertSeries(db, [
        {
          animeId: 1,
          title: 'Arrow Watching',
          airDate: '2019-01-10',
          endDate: '2019-03-28',
          tags: [{ id: 10, name: 'action' }],
          episodes: [
            { id: 11, file: true, watchedBy: [1] },
            { id: 12, file: true },
          ],
        },
        {
          animeId: 2,
          title: 'Bell Finished',
          airDate: '2019-04-05',
          endDate: '2020-01-10',
          tags: [
            { id: 12, name: 'drama' },
            { id: 13, name: 'Action' },
          ],
          episodes: [
            { id: 21, file: true, watchedBy: [1] },
            { id: 22, file: true, watchedBy: [1] },
          ],
        },
        {
          animeId: 3,
          title: 'Crane Voted',
          type: 'Other',
          airDate: '2021-07-01',
          endDate: '2021-09-20',
          tags: [{ id: 14, name: 'sci-fi' }],
          episodes: [{ id: 31, file: true, watchedBy: [1] }],
        },
        {
          animeId: 4,
          title: 'Dune Collecting',
          airDate: daysAgo(60),
          endDate: daysAgo(10),
          tags: [{ id: 15, name: 'girls` love' }],
          episodes: [
            { id: 41, number: 1, file: true, airDate: daysAgo(60) },
            { id: 42, number: 2, airDate: daysAgo(50) },
            { id: 43, number: 3, file: true, airDate: daysAgo(40) },
          ],
        },
        { animeId: 5, title: 'Echo Empty', airDate: null, endDate: null },
      ]);
      jobEnded(server);
      (['A', 'B', 'C', 'D', 'E'] as Letter[]).forEach((letter, i) => {
        series[letter] = written.get(i + 1)!.seriesId;
        groups[letter] = written.get(i + 1)!.groupId;
      });
      const now = new Date().toISOString();
      // C was added and watched long ago, and voted on.
      const longAgo = '2020-02-01T10:00:00.000Z';
      const cEpisodes = written.get(3)!.episodeIds;
      await db.updateTable('user_episode_states').set({ watched_at: longAgo }).where('episode_id', 'in', cEpisodes).execute();
      await db
        .updateTable('files')
        .set({ created_at: longAgo })
        .where('ed2k', 'in', db.selectFrom('file_episode_links').select('ed2k').where('episode_id', '=', 31))
        .execute();
      await db
        .insertInto('user_series_votes')
        .values({ user_id: 1, series_id: series.C, value: 8, vote_type: 'Permanent', updated_at: now })
        .execute();
      // D's releases are a group's: its missing number 2 lies below that group's last release (collecting).
      await db.insertInto('anidb_release_groups').values({ id: 7, name: 'Invented Subs', short_name: 'IS', updated_at: now }).execute();
      await db.updateTable('anidb_files').set({ group_id: 7 }).where('anime_id', '=', 4).execute();
      // B is linked to TMDB; D's group is a favourite.
      await db.insertInto('xref_anidb_tmdb_show').values({ anime_id: 2, show_id: 7000, source: 'User' }).execute();
      await db.insertInto('user_group_favourites').values({ user_id: 1, group_id: groups.D }).execute();
    });

    it('All: every group', async () => {
      expect(await groupsOf(await presetId('All'))).toEqual(['A', 'B', 'C', 'D', 'E']);
    });

    it('Continue Watching: groups with watched and unwatched episodes', async () => {
      expect(await groupsOf(await presetId('Continue Watching'))).toEqual(['A']);
    });

    it("Favorites: the user's favourite groups", async () => {
      expect(await groupsOf(await presetId('Favorites'))).toEqual(['D']);
    });

    it('Missing Episodes: groups missing an episode below their last one', async () => {
      expect(await groupsOf(await presetId('Missing Episodes'))).toEqual(['D']);
    });

    it('Newly Added Series: groups with a file added in the last ten days', async () => {
      expect(await groupsOf(await presetId('Newly Added Series'))).toEqual(['A', 'B', 'D']);
    });

    it('Newly Airing Series: groups whose last air date lies in the last thirty days', async () => {
      expect(await groupsOf(await presetId('Newly Airing Series'))).toEqual(['D']);
    });

    it('Missing Votes: series watched through, none missing, without a vote', async () => {
      expect(await seriesOf(await presetId('Missing Votes'))).toEqual(['B', 'E']);
    });

    it('Recently Watched: groups watched in the last ten days', async () => {
      expect(await groupsOf(await presetId('Recently Watched'))).toEqual(['A', 'B']);
    });

    it('Missing Links: series of a kind TMDB lists without a TMDB link', async () => {
      expect(await seriesOf(await presetId('Missing Links'))).toEqual(['A', 'D', 'E']);
    });

    it('Years, Seasons and Tags: one sub-filter per year, season and tag of the collection, each selecting its series', async () => {
      const dir = async (name: string) => {
        const id = await presetId(name);
        const children = await json<ListResult<Filter>>('GET', `/api/v3/Filter/${id}/Filter?pageSize=0`);
        return { id, children: children.List };
      };
      const thisYear = Number(daysAgo(0).slice(0, 4));
      const dYears = [...new Set([Number(daysAgo(60).slice(0, 4)), Number(daysAgo(10).slice(0, 4))])];
      const years = await dir('Years');
      expect(years.children.map((c) => c.Name)).toEqual(
        ['2019', '2020', '2021', ...dYears.map(String)].filter((y, i, all) => all.indexOf(y) === i),
      );
      expect(dYears.every((y) => y <= thisYear)).toBe(true);
      for (const child of years.children) {
        expect(child).toMatchObject({
          IsLocked: true,
          IsDirectory: false,
          IsHidden: false,
          ApplyAtSeriesLevel: true,
          IDs: { ParentFilter: years.id },
        });
        expect(child).not.toHaveProperty('Expression');
      }
      const year = (name: string) => years.children.find((c) => c.Name === name)!;
      expect(year('2019').Size).toBe(2);
      expect(await seriesOf(year('2019').IDs.ID)).toEqual(['A', 'B']);
      expect(await seriesOf(year('2020').IDs.ID)).toEqual(['B']);
      expect(await groupsOf(year('2021').IDs.ID)).toEqual(['C']);
      // The child as GET Filter/{id} and the console's collection page read it.
      expect(await json<Filter>('GET', `/api/v3/Filter/${year('2019').IDs.ID}?withConditions=true`)).toEqual({
        IDs: { ID: year('2019').IDs.ID, ParentFilter: years.id },
        Name: '2019',
        Size: 2,
        IsLocked: true,
        IsDirectory: false,
        IsHidden: false,
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'InYear', Parameter: '2019' },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      expect((await json<Filter>('GET', `/api/v3/Filter/${year('2019').IDs.ID}/Parent`)).IDs.ID).toBe(years.id);

      const seasons = await dir('Seasons');
      const seasonNames = seasons.children.map((c) => c.Name);
      // Bell Finished runs from spring 2019 into winter 2020; the list is ordered by name.
      expect(seasonNames).toEqual([...seasonNames].sort());
      for (const name of ['Winter 2019', 'Spring 2019', 'Summer 2019', 'Fall 2019', 'Winter 2020', 'Summer 2021'])
        expect(seasonNames).toContain(name);
      expect(seasonNames).not.toContain('Spring 2020');
      const season = (name: string) => seasons.children.find((c) => c.Name === name)!;
      expect(await seriesOf(season('Winter 2019').IDs.ID)).toEqual(['A']);
      expect(await seriesOf(season('Fall 2019').IDs.ID)).toEqual(['B']);
      expect((await json<Filter>('GET', `/api/v3/Filter/${season('Summer 2021').IDs.ID}?withConditions=true`)).Expression).toEqual({
        Type: 'InSeason',
        Parameter: '2021',
        SecondParameter: 'Summer',
      });

      // Tags: one per name whatever its case, title-cased as Shoko names them.
      const tags = await dir('Tags');
      expect(tags.children.map((c) => c.Name)).toEqual(['Action', 'Drama', "Girls' Love", 'Sci-Fi']);
      const tag = (name: string) => tags.children.find((c) => c.Name === name)!;
      expect(tag('Action').Size).toBe(2);
      expect(await seriesOf(tag('Action').IDs.ID)).toEqual(['A', 'B']);
      expect(await seriesOf(tag("Girls' Love").IDs.ID)).toEqual(['D']);
      expect((await json<Filter>('GET', `/api/v3/Filter/${tag('Sci-Fi').IDs.ID}?withConditions=true`)).Expression).toEqual({
        Type: 'HasTag',
        Parameter: 'sci-fi',
      });

      // Top level: each directory's Size is its number of sub-filters.
      const top = Object.fromEntries((await topLevel()).List.map((f) => [f.Name, f.Size]));
      expect([top.Years, top.Seasons, top.Tags]).toEqual([years.children.length, seasons.children.length, 4]);

      // Computed sub-filters cannot be changed or deleted, nor can filters be put under their directory.
      expect((await api('DELETE', `/api/v3/Filter/${tag('Drama').IDs.ID}`)).statusCode).toBe(400);
      expect((await api('PUT', `/api/v3/Filter/${tag('Drama').IDs.ID}`, { Name: 'x' })).json().errors).toHaveProperty('IsLocked');
      expect((await api('POST', '/api/v3/Filter', { Name: 'x', ParentID: tags.id })).json().errors).toHaveProperty('ParentID');
      expect((await api('GET', '/api/v3/Filter/1900001990')).statusCode).toBe(404);
    });

    it('Years, Seasons and Tags follow the collection: a new series brings its year, season and tag at once', async () => {
      // Sizes and sub-filters are computed once and kept until the collection changes.
      const names = async (directory: string) =>
        (await json<ListResult<Filter>>('GET', `/api/v3/Filter/${await presetId(directory)}/Filter?pageSize=0`)).List.map((c) => c.Name);
      const yearsSize = async () => (await topLevel()).List.find((f) => f.Name === 'Years')!.Size;
      const yearsBefore = await yearsSize();
      expect(await names('Years')).not.toContain('2012');
      await insertSeries(server.services.db.kysely, [
        { animeId: 6, title: 'Fox Later', airDate: '2012-10-04', endDate: '2012-12-20', tags: [{ id: 16, name: 'mecha' }] },
      ]);
      expect(await yearsSize()).toBe(yearsBefore);
      expect(await names('Years')).not.toContain('2012');
      jobEnded(server);
      expect(await yearsSize()).toBe(yearsBefore + 1);
      expect(await names('Years')).toContain('2012');
      expect(await names('Seasons')).toContain('Fall 2012');
      expect(await names('Tags')).toContain('Mecha');
      await server.services.db.kysely.deleteFrom('series').where('anime_id', '=', 6).execute();
      jobEnded(server);
      expect(await names('Years')).not.toContain('2012');
      expect(await names('Tags')).not.toContain('Mecha');
    });
  });

  describe('after a restart', () => {
    it('keeps what a user edited or deleted and writes nothing again', async () => {
      const favorites = await presetId('Favorites');
      expect((await api('DELETE', `/api/v3/Filter/${favorites}`)).statusCode).toBe(204);
      expect((await api('DELETE', `/api/v3/Filter/${await presetId('Tags')}`)).statusCode).toBe(204);
      const renamed = await json<Filter>('PUT', `/api/v3/Filter/${await presetId('Missing Links')}`, {
        Name: 'No TMDB',
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'MissingTmdbLink' },
      });
      const tags = (await json<ListResult<{ ID: number; Name: string }>>('GET', '/api/v3/Tag/User?pageSize=0')).List;
      expect((await api('DELETE', `/api/v3/Tag/User/${tags.find((t) => t.Name === 'Pinned')!.ID}`)).statusCode).toBe(204);
      const before = (await topLevel()).List.map((f) => f.Name);

      await server.close({ keepData: true });
      server = await createTestServer({ restartOf: server });
      server.services.init.startServer();
      await server.services.init.waitForStartup();
      const after = (await topLevel()).List;
      expect(after.map((f) => f.Name)).toEqual(before);
      expect(after.map((f) => f.Name)).not.toContain('Favorites');
      expect(after.map((f) => f.Name)).not.toContain('Tags');
      expect(after.find((f) => f.IDs.ID === renamed.IDs.ID)?.Name).toBe('No TMDB');
      expect((await json<ListResult<{ Name: string }>>('GET', '/api/v3/Tag/User?pageSize=0')).List.map((t) => t.Name)).not.toContain(
        'Pinned',
      );
      // The Tags directory's sub-filters went with it.
      expect((await api('GET', '/api/v3/Filter/1900100010')).statusCode).toBe(404);
    });
  });
});
