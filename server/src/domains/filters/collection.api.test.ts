import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterCondition } from '@shoko-ts/contract';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from '../series/test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seedTmdbImage, seedTmdbSeasons, seedTmdbShows } from '../../test/seed-tmdb.js';
import { seedImportFolder } from '../../test/seed-files.js';

/**
 * An invented four-series collection: Alpha Academy (A) and The Delta Tale (D) share the group "Alpha Group";
 * Beta Chronicle (B) and Gamma Journey (G) have groups of their own. Tag 99 is restricted for the second user.
 */
describe('collection browsing API', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  const series: Record<'A' | 'B' | 'G' | 'D', number> = { A: 0, B: 0, G: 0, D: 0 };
  const groups: Record<'GA' | 'GB' | 'GG', number> = { GA: 0, GB: 0, GG: 0 };
  let customTagId = 0;
  let folderId = 0;

  const api = (method: string, url: string, body?: unknown, apiKey = key) => server.request({ method, url, key: apiKey, body });
  const letters = (ids: number[]) => ids.map((id) => Object.entries(series).find(([, v]) => v === id)?.[0] ?? `?${id}`);
  /** Series matching a series-level filter, in the filter's order. */
  const match = async (expression: FilterCondition | null, sorting?: unknown, apiKey = key) => {
    const res = await api(
      'POST',
      '/api/v3/Filter/Preview/Series/OnlyIDs',
      { ApplyAtSeriesLevel: true, Expression: expression, Sorting: sorting ?? null },
      apiKey,
    );
    expect(res.statusCode, res.body).toBe(200);
    return letters(res.json() as number[]);
  };
  const set = async (expression: FilterCondition) => (await match(expression)).sort();

  beforeAll(async () => {
    ({
      server,
      key,
      viewer: { key: viewerKey },
    } = await seriesTestServer([99]));
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Alpha Academy',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Alpha Academy' },
          { type: 'official', language: 'en', value: 'Alpha English Title' },
        ],
        airDate: '2020-01-05',
        endDate: '2020-03-29',
        rating: 800,
        tags: [
          { id: 10, name: 'action', weight: 500 },
          { id: 11, name: 'school', weight: 200 },
        ],
        // Episode numbers 1, 3, 2: the missing number 2 lies below a release the group has (see release groups below).
        episodes: [
          { id: 11, file: true, watchedBy: [1] },
          { id: 12, file: true, number: 3 },
          { id: 13, number: 2 },
        ],
        groupName: 'Alpha Group',
        createdAt: '2024-01-04T00:00:00.000Z',
      },
      {
        animeId: 2,
        title: 'Beta Chronicle',
        type: 'Movie',
        airDate: '2015-07-10',
        endDate: '2015-07-10',
        rating: 600,
        tags: [{ id: 12, name: 'drama' }],
        episodes: [{ id: 21, file: true }],
        createdAt: '2024-01-03T00:00:00.000Z',
        fileSource: 'Blu-ray',
        audioLanguages: ['english'],
      },
      {
        animeId: 3,
        title: 'Gamma Journey',
        type: 'OVA',
        airDate: '2021-10-02',
        endDate: null,
        rating: 700,
        tags: [
          { id: 10, name: 'action' },
          { id: 99, name: 'ecchi' },
        ],
        episodes: [{ id: 31 }, { id: 32 }],
        createdAt: '2024-01-02T00:00:00.000Z',
      },
    ]);
    series.A = written.get(1)!.seriesId;
    series.B = written.get(2)!.seriesId;
    series.G = written.get(3)!.seriesId;
    groups.GA = written.get(1)!.groupId;
    groups.GB = written.get(2)!.groupId;
    groups.GG = written.get(3)!.groupId;
    const delta = await insertSeries(db, [
      {
        animeId: 4,
        title: 'The Delta Tale',
        airDate: '2018-04-06',
        endDate: '2018-06-30',
        rating: 500,
        tags: [{ id: 13, name: 'comedy' }],
        episodes: [{ id: 41, file: true }, { id: 42 }],
        groupId: groups.GA,
        createdAt: '2024-01-01T00:00:00.000Z',
      },
    ]);
    series.D = delta.get(4)!.seriesId;

    customTagId = (
      await db.insertInto('custom_tags').values({ name: 'favourite', description: '' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    await db.insertInto('series_custom_tags').values({ series_id: series.B, tag_id: customTagId }).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('user_series_votes')
      .values([
        { user_id: 1, series_id: series.A, value: 9, vote_type: 'Permanent', updated_at: now },
        { user_id: 1, series_id: series.B, value: 4, vote_type: 'Temporary', updated_at: now },
      ])
      .execute();
    await db
      .insertInto('anidb_characters')
      .values({ id: 500, name: 'Invented Hero', gender: null, character_type: null, description: null, picture: null })
      .execute();
    await db
      .insertInto('anidb_anime_characters')
      .values({ anime_id: 1, character_id: 500, appearance: 'main character in', ordering: 0 })
      .execute();
    await db.insertInto('anidb_creators').values({ id: 600, name: 'Invented Studio', picture: null }).execute();
    await db
      .insertInto('anidb_anime_staff')
      .values({ anime_id: 2, creator_id: 600, role: 'Animation Work', character_id: null, ordering: 0 })
      .execute();
    folderId = await seedImportFolder(server, 'Anime', '/media/anime');
    const betaFile = await db
      .selectFrom('files')
      .select('id')
      .where('size', '=', 100_000_000 + 21)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('file_locations')
      .values({
        file_id: betaFile.id,
        import_folder_id: folderId,
        relative_path: 'Beta/Beta Chronicle - 01.mkv',
        is_accessible: 1,
        mtime_ms: null,
      })
      .execute();
    // TMDB: A is linked to a show with one automatic and one verified episode link (13 unlinked); B to a movie.
    await db.insertInto('xref_anidb_tmdb_show').values({ anime_id: 1, show_id: 7000, source: 'User' }).execute();
    await db.insertInto('xref_anidb_tmdb_movie').values({ anime_id: 2, anidb_episode_id: 21, movie_id: 8000, source: 'User' }).execute();
    // Trakt knows A's show; B's movie was looked up and Trakt does not have it.
    await db
      .insertInto('trakt_links')
      .values([
        {
          anime_id: 1,
          kind: 'show',
          tmdb_id: 7000,
          trakt_id: 90001,
          slug: 'alpha',
          title: 'Alpha',
          checked_at: '2024-05-01T10:00:00.000Z',
        },
        { anime_id: 2, kind: 'movie', tmdb_id: 8000, trakt_id: null, slug: null, title: null, checked_at: '2024-05-01T10:00:00.000Z' },
      ])
      .execute();
    await db
      .insertInto('xref_anidb_tmdb_episode')
      .values([
        { anime_id: 1, anidb_episode_id: 11, show_id: 7000, tmdb_episode_id: 70001, ordering: 0, rating: 'DateAndTitleMatches' },
        { anime_id: 1, anidb_episode_id: 12, show_id: 7000, tmdb_episode_id: 70002, ordering: 0, rating: 'UserVerified' },
      ])
      .execute();
    // Release groups: A's and D's files come from "Invented Subs", B's from "Beta Raws". A misses number 2 below its
    // group's number 3 (missing while collecting); D misses number 2 above its group's only release (number 1).
    await db
      .insertInto('anidb_release_groups')
      .values([
        { id: 7, name: 'Invented Subs', short_name: 'IS', updated_at: now },
        { id: 8, name: 'Beta Raws', short_name: 'BR', updated_at: now },
      ])
      .execute();
    await db.updateTable('anidb_files').set({ group_id: 7 }).where('anime_id', 'in', [1, 4]).execute();
    await db.updateTable('anidb_files').set({ group_id: 8 }).where('anime_id', '=', 2).execute();
    // Images: every series has its AniDB poster; A's TMDB show adds a backdrop and a season of it a logo, B's movie a
    // logo that B prefers.
    const image = (parent_type: 'Show' | 'Season' | 'Movie', parent_id: number, image_type: 'Backdrop' | 'Logo') =>
      seedTmdbImage(server, { parent_type, parent_id, image_type, file_path: `/${parent_id}.png`, width: 10, height: 10 });
    await seedTmdbShows(server, [{ id: 7000, title: 'Alpha' }]);
    await seedTmdbSeasons(server, [{ id: 7100, show_id: 7000, season_number: 1, title: 'Season 1' }]);
    await image('Show', 7000, 'Backdrop');
    await image('Season', 7100, 'Logo');
    const logo = await image('Movie', 8000, 'Logo');
    await db
      .insertInto('series_preferred_images')
      .values({ series_id: series.B, image_type: 'Logo', source: 'TMDB', image_id: logo })
      .execute();
    // A voice actor (creator 601) for character 500 in A.
    await db.insertInto('anidb_creators').values({ id: 601, name: 'Invented Voice', picture: null }).execute();
    await db
      .insertInto('anidb_anime_staff')
      .values({ anime_id: 1, creator_id: 601, role: 'Seiyuu', character_id: 500, ordering: 1 })
      .execute();
    // AniDB relations: A and D (one group) are prequel and sequel; A → B (another group) a side story.
    await db
      .insertInto('anidb_relations')
      .values([
        { anime_id: 1, related_anime_id: 4, relation_type: 'Sequel', related_title: null },
        { anime_id: 4, related_anime_id: 1, relation_type: 'Prequel', related_title: null },
        { anime_id: 1, related_anime_id: 2, relation_type: 'Side Story', related_title: null },
      ])
      .execute();
    // A's first file is 1080p.
    await db
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Video: [{ Width: 1920, Height: 1080, Resolution: '1080p' }], Audio: [] }) })
      .where('size', '=', 100_000_000 + 11)
      .execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('filter expressions (series level)', () => {
    const tag = (name: string): FilterCondition => ({ Type: 'HasTag', Parameter: name });
    const cases: Array<[string, FilterCondition, string[]]> = [
      ['HasTag', tag('ACTION'), ['A', 'G']],
      ['HasTagByID', { Type: 'HasTagByID', Parameter: '12' }, ['B']],
      ['HasCustomTag', { Type: 'HasCustomTag', Parameter: 'Favourite' }, ['B']],
      ['HasAnimeType', { Type: 'HasAnimeType', Parameter: 'ova' }, ['G']],
      ['HasAnimeType TVSeries', { Type: 'HasAnimeType', Parameter: 'TVSeries' }, ['A', 'D']],
      ['InSeason', { Type: 'InSeason', Parameter: '2020', SecondParameter: 'Winter' }, ['A']],
      ['InYear', { Type: 'InYear', Parameter: '2015' }, ['B']],
      ['IsFinished', { Type: 'IsFinished' }, ['A', 'B', 'D']],
      ['HasVideoFiles', { Type: 'HasVideoFiles' }, ['A', 'B', 'D']],
      ['HasMissingEpisodes', { Type: 'HasMissingEpisodes' }, ['A', 'D', 'G']],
      ['HasUnwatchedEpisodes', { Type: 'HasUnwatchedEpisodes' }, ['A', 'B', 'D']],
      ['HasWatchedEpisodes', { Type: 'HasWatchedEpisodes' }, ['A']],
      // Series without a gap or a watched episode have no date or no row there: the negation still holds for them.
      ['Not HasMissingEpisodes', { Type: 'Not', Left: { Type: 'HasMissingEpisodes' } }, ['B']],
      ['Not HasWatchedEpisodes', { Type: 'Not', Left: { Type: 'HasWatchedEpisodes' } }, ['B', 'D', 'G']],
      ['HasName', { Type: 'HasName', Parameter: 'gamma JOURNEY' }, ['G']],
      ['HasUserVotes', { Type: 'HasUserVotes' }, ['A', 'B']],
      ['HasPermanentUserVotes', { Type: 'HasPermanentUserVotes' }, ['A']],
      ['MissingPermanentUserVotes', { Type: 'MissingPermanentUserVotes' }, ['B', 'D']],
      ['MissingPermanentVote', { Type: 'MissingPermanentVote' }, ['B', 'D']],
      ['MissingVote', { Type: 'MissingVote' }, ['D', 'G']],
      ['HasCharacter', { Type: 'HasCharacter', Parameter: '500' }, ['A']],
      ['HasCreator', { Type: 'HasCreator', Parameter: '600' }, ['B']],
      ['HasCharacterWithAppearance', { Type: 'HasCharacterWithAppearance', Parameter: '500', SecondParameter: 'Main_Character' }, ['A']],
      [
        'HasCharacterWithAppearance (other appearance)',
        { Type: 'HasCharacterWithAppearance', Parameter: '500', SecondParameter: 'Cameo' },
        [],
      ],
      ['AnyEquals CharacterIDs', { Type: 'AnyEquals', Left: { Type: 'CharacterIDs' }, Parameter: '500' }, ['A']],
      ['AnyEquals CreatorIDs', { Type: 'AnyEquals', Left: { Type: 'CreatorIDsSelector' }, Parameter: '600' }, ['B']],
      ['IsFavorite', { Type: 'IsFavorite' }, []],
      ['HasTmdbLink', { Type: 'HasTmdbLink' }, ['A', 'B']],
      ['HasTraktLink', { Type: 'HasTraktLink' }, ['A']],
      ['HasTvDBLink', { Type: 'HasTvDBLink' }, []],
      ['HasTmdbAutoLinkingDisabled', { Type: 'HasTmdbAutoLinkingDisabled' }, []],
      ['HasTraktAutoLinkingDisabled', { Type: 'HasTraktAutoLinkingDisabled' }, []],
      ['MissingTmdbLink', { Type: 'MissingTmdbLink' }, ['D', 'G']],
      [
        'NumberEquals AutomaticTmdbEpisodeLinks',
        { Type: 'NumberEquals', Left: { Type: 'AutomaticTmdbEpisodeLinks' }, Parameter: '1' },
        ['A'],
      ],
      [
        'NumberEquals UserVerifiedTmdbEpisodeLinks',
        { Type: 'NumberEquals', Left: { Type: 'UserVerifiedTmdbEpisodeLinks' }, Parameter: '1' },
        ['A'],
      ],
      ['NumberEquals MissingTmdbEpisodeLinks', { Type: 'NumberEquals', Left: { Type: 'MissingTmdbEpisodeLinks' }, Parameter: '1' }, ['A']],
      ['SetOverlaps', { Type: 'SetOverlaps', Left: { Type: 'Names' } }, []],
      ['StringIn', { Type: 'StringIn', Left: { Type: 'Name' } }, []],
      ['NumberEquals AudioLanguageCount', { Type: 'NumberEquals', Left: { Type: 'AudioLanguageCount' }, Parameter: '1' }, ['A', 'B', 'D']],
      ['NumberEquals SubtitleLanguageCount', { Type: 'NumberEquals', Left: { Type: 'SubtitleLanguageCount' }, Parameter: '0' }, ['G']],
      ['HasVideoSource', { Type: 'HasVideoSource', Parameter: 'Blu-ray' }, ['B']],
      ['HasSharedVideoSource', { Type: 'HasSharedVideoSource', Parameter: 'www' }, ['A', 'D']],
      ['HasAudioLanguage', { Type: 'HasAudioLanguage', Parameter: 'English' }, ['B']],
      ['HasSharedAudioLanguage', { Type: 'HasSharedAudioLanguage', Parameter: 'japanese' }, ['A', 'D']],
      ['HasSubtitleLanguage', { Type: 'HasSubtitleLanguage', Parameter: 'english' }, ['A', 'B', 'D']],
      ['HasSharedSubtitleLanguage', { Type: 'HasSharedSubtitleLanguage', Parameter: 'english' }, ['A', 'B', 'D']],
      ['Not', { Type: 'Not', Left: tag('action') }, ['B', 'D']],
      ['And', { Type: 'And', Left: tag('action'), Right: { Type: 'HasVideoFiles' } }, ['A']],
      ['Or', { Type: 'Or', Left: tag('drama'), Right: tag('comedy') }, ['B', 'D']],
      ['Xor', { Type: 'Xor', Left: tag('action'), Right: { Type: 'HasMissingEpisodes' } }, ['D']],
      ['Equals', { Type: 'Equals', Left: tag('action'), Right: { Type: 'HasMissingEpisodes' } }, ['A', 'B', 'G']],
      ['Constant', { Type: 'Constant' }, []],
      ['AnyContains Names (titles)', { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: 'english' }, ['A']],
      ['AnyContains Names (group names)', { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'GROUP' }, ['A', 'D']],
      ['AnyContains wildcard characters are literal', { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: '%' }, []],
      ['AnyEquals AniDBIDs', { Type: 'AnyEquals', Left: { Type: 'AniDBIDsSelector' }, Parameter: '2' }, ['B']],
      ['AllContains AnidbTags', { Type: 'AllContains', Left: { Type: 'AnidbTags' }, Parameter: 'a' }, ['B']],
      ['AnyEquals AnidbTagIDs', { Type: 'AnyEquals', Left: { Type: 'AnidbTagIDs' }, Parameter: '99' }, ['G']],
      ['AnyEquals CustomTags', { Type: 'AnyEquals', Left: { Type: 'CustomTags' }, Parameter: 'favourite' }, ['B']],
      ['AnyContains FilePaths', { Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'beta/' }, ['B']],
      // Series without a file path hold any text in all of them.
      ['AllContains FilePaths', { Type: 'AllContains', Left: { Type: 'FilePaths' }, Parameter: 'GAMMA' }, ['A', 'D', 'G']],
      [
        'AllContains FilePaths, the name',
        { Type: 'AllContains', Left: { Type: 'FilePaths' }, Right: { Type: 'Name' } },
        ['A', 'B', 'D', 'G'],
      ],
      ['AnyEquals ImportFolderNames', { Type: 'AnyEquals', Left: { Type: 'ImportFolderNames' }, Parameter: 'anime' }, ['B']],
      ['StringContains', { Type: 'StringContains', Left: { Type: 'NameSelector' }, Parameter: 'TA' }, ['B', 'D']],
      ['StringEquals', { Type: 'StringEquals', Left: { Type: 'Name' }, Parameter: 'beta chronicle' }, ['B']],
      ['StringNotEquals', { Type: 'StringNotEquals', Left: { Type: 'Name' }, Parameter: 'beta chronicle' }, ['A', 'D', 'G']],
      ['StringStartsWith', { Type: 'StringStartsWith', Left: { Type: 'Name' }, Parameter: 'the' }, ['D']],
      ['StringEndsWith', { Type: 'StringEndsWith', Left: { Type: 'Name' }, Parameter: 'journey' }, ['G']],
      [
        'NumberGreaterThan EpisodeCount',
        { Type: 'NumberGreaterThan', Left: { Type: 'EpisodeCountSelector' }, Parameter: '1' },
        ['A', 'D', 'G'],
      ],
      ['NumberEquals SeriesCount', { Type: 'NumberEquals', Left: { Type: 'SeriesCount' }, Parameter: '1' }, ['A', 'B', 'D', 'G']],
      ['NumberNotEquals TotalEpisodeCount', { Type: 'NumberNotEquals', Left: { Type: 'TotalEpisodeCount' }, Parameter: '2' }, ['A', 'B']],
      [
        'NumberGreaterThanEquals AverageAniDBRating',
        { Type: 'NumberGreaterThanEquals', Left: { Type: 'AverageAniDBRating' }, Parameter: '7' },
        ['A', 'G'],
      ],
      ['NumberLessThan UnwatchedEpisodeCount', { Type: 'NumberLessThan', Left: { Type: 'UnwatchedEpisodeCount' }, Parameter: '1' }, ['G']],
      [
        'NumberLessThanEquals MissingEpisodeCount',
        { Type: 'NumberLessThanEquals', Left: { Type: 'MissingEpisodeCount' }, Parameter: '0' },
        ['B'],
      ],
      ['NumberEquals VideoFiles', { Type: 'NumberEquals', Left: { Type: 'VideoFiles' }, Parameter: '2' }, ['A']],
      [
        'NumberGreaterThan WatchedEpisodeCount',
        { Type: 'NumberGreaterThan', Left: { Type: 'WatchedEpisodeCount' }, Parameter: '0' },
        ['A'],
      ],
      [
        'NumberGreaterThan HighestUserRating vs LowestAniDBRating',
        { Type: 'NumberGreaterThan', Left: { Type: 'HighestUserRating' }, Right: { Type: 'LowestAniDBRating' } },
        ['A'],
      ],
      ['NumberGreaterThan SeriesVoteCount', { Type: 'NumberGreaterThan', Left: { Type: 'SeriesVoteCount' }, Parameter: '0' }, ['A', 'B']],
      [
        'NumberEquals SeriesTemporaryVoteCount',
        { Type: 'NumberEquals', Left: { Type: 'SeriesTemporaryVoteCount' }, Parameter: '1' },
        ['B'],
      ],
      ['DateLessThan AirDate', { Type: 'DateLessThan', Left: { Type: 'AirDateSelector' }, Parameter: '2016-01-01' }, ['B']],
      ['DateEquals AirDate', { Type: 'DateEquals', Left: { Type: 'AirDate' }, Parameter: '2015-07-10' }, ['B']],
      ['DateNotEquals AirDate', { Type: 'DateNotEquals', Left: { Type: 'AirDate' }, Parameter: '2015-07-10' }, ['A', 'D', 'G']],
      ['DateGreaterThanEquals AirDate', { Type: 'DateGreaterThanEquals', Left: { Type: 'AirDate' }, Parameter: '2020-01-05' }, ['A', 'G']],
      [
        'DateLessThanEquals LastAirDate',
        { Type: 'DateLessThanEquals', Left: { Type: 'LastAirDate' }, Parameter: '2018-06-30' },
        ['B', 'D'],
      ],
      [
        'DateGreaterThan AirDate vs DateDiff(Today)',
        {
          Type: 'DateGreaterThan',
          Left: { Type: 'AirDate' },
          Right: { Type: 'DateDiffFunction', Left: { Type: 'TodayFunction' }, Parameter: '36500:00:00:00.0000000' },
        },
        ['A', 'B', 'D', 'G'],
      ],
      [
        'DateEquals DateAdd(AirDate)',
        { Type: 'DateEquals', Left: { Type: 'DateAdd', Left: { Type: 'AirDate' }, Parameter: '1:00:00:00' }, Parameter: '2015-07-11' },
        ['B'],
      ],
      // Shifted dates against a constant compare the date with the constant shifted back (across month and year ends).
      [
        'DateLessThan DateDiff(AirDate)',
        { Type: 'DateLessThan', Left: { Type: 'DateDiff', Left: { Type: 'AirDate' }, Parameter: '10:00:00:00' }, Parameter: '2015-07-01' },
        ['B'],
      ],
      [
        'DateGreaterThanEquals DateAdd(DateDiff(AirDate)), on the boundary',
        {
          Type: 'DateGreaterThanEquals',
          Left: {
            Type: 'DateAdd',
            Left: { Type: 'DateDiff', Left: { Type: 'AirDate' }, Parameter: '400:00:00:00' },
            Parameter: '3:00:00:00',
          },
          Parameter: '2018-12-04',
        },
        ['A', 'G'],
      ],
      ['DateLessThan AddedDate', { Type: 'DateLessThan', Left: { Type: 'AddedDate' }, Parameter: '2024-01-03' }, ['D', 'G']],
      [
        'DateGreaterThan LastAddedDate',
        { Type: 'DateGreaterThan', Left: { Type: 'LastAddedDate' }, Parameter: '2000-01-01' },
        ['A', 'B', 'D'],
      ],
      ['DateGreaterThan WatchedDate', { Type: 'DateGreaterThan', Left: { Type: 'WatchedDate' }, Parameter: '2000-01-01' }, ['A']],
      [
        'DateGreaterThan LastWatchedDate',
        {
          Type: 'DateGreaterThan',
          Left: { Type: 'LastWatchedDate' },
          Right: { Type: 'DateDiff', Left: { Type: 'Today' }, Parameter: '7:00:00:00' },
        },
        ['A'],
      ],
      ['HasResolution', { Type: 'HasResolution', Parameter: '1080P' }, ['A']],
      ['HasResolution (absent)', { Type: 'HasResolution', Parameter: '720p' }, []],
      ['HasAvailableImage', { Type: 'HasAvailableImage', Parameter: 'backdrop' }, ['A']],
      ['HasAvailableImage Poster', { Type: 'HasAvailableImage', Parameter: 'Poster' }, ['A', 'B', 'D', 'G']],
      [
        'AnyEquals AvailableImageTypes',
        { Type: 'AnyEquals', Left: { Type: 'AvailableImageTypesSelector' }, Parameter: 'Logo' },
        ['A', 'B'],
      ],
      ['HasAvailableImage Logo', { Type: 'HasAvailableImage', Parameter: 'LOGO' }, ['A', 'B']],
      ['HasPreferredImage', { Type: 'HasPreferredImage', Parameter: 'Logo' }, ['B']],
      ['HasPreferredImage (none of that type)', { Type: 'HasPreferredImage', Parameter: 'Backdrop' }, []],
      ['AnyEquals PreferredImageTypes', { Type: 'AnyEquals', Left: { Type: 'PreferredImageTypes' }, Parameter: 'logo' }, ['B']],
      ['HasReleaseGroupName', { Type: 'HasReleaseGroupName', Parameter: 'invented SUBS' }, ['A', 'D']],
      ['AnyContains ReleaseGroupNames', { Type: 'AnyContains', Left: { Type: 'ReleaseGroupNames' }, Parameter: 'raws' }, ['B']],
      ['HasCreatorWithRole Studio', { Type: 'HasCreatorWithRole', Parameter: '600', SecondParameter: 'Studio' }, ['B']],
      ['HasCreatorWithRole (other role)', { Type: 'HasCreatorWithRole', Parameter: '600', SecondParameter: 'Director' }, []],
      ['HasCreatorWithRole Actor', { Type: 'HasCreatorWithRole', Parameter: '601', SecondParameter: 'Actor' }, ['A']],
      ['HasCreatorWithRole (a voice actor is no Staff)', { Type: 'HasCreatorWithRole', Parameter: '601', SecondParameter: 'Staff' }, []],
      ['HasMissingEpisodesCollecting', { Type: 'HasMissingEpisodesCollecting' }, ['A']],
      [
        'NumberEquals MissingEpisodeCollectingCount',
        { Type: 'NumberEquals', Left: { Type: 'MissingEpisodeCollectingCount' }, Parameter: '1' },
        ['A'],
      ],
      ['MissingTraktLink', { Type: 'MissingTraktLink' }, ['B']],
      ['MissingTvDBLink', { Type: 'MissingTvDBLink' }, []],
      ['StringRegexMatches', { Type: 'StringRegexMatches', Left: { Type: 'NameSelector' }, Parameter: '^(Alpha|Beta) ' }, ['A', 'B']],
      ['StringRegexMatches is case-sensitive', { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: '^alpha' }, []],
      // Nothing but `^` and plain text: decided in the database, case-sensitively.
      ['StringRegexMatches, a plain prefix', { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: '^Alpha' }, ['A']],
      // Patterns starting with plain text: for String/Any, only the values holding it reach the regex (requiredLiteral).
      ['StringRegexMatches with a literal', { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: 'ta T' }, ['D']],
      [
        'StringRegexMatches with a literal is case-sensitive',
        { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: 'TA T' },
        [],
      ],
      [
        'AnyRegexMatches with a literal and a quantifier',
        { Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'CHO+L$' },
        ['A'],
      ],
      ['AllRegexMatches with a literal', { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'DR' }, ['B']],
      [
        'Not AllRegexMatches, a value holding the literal but failing',
        { Type: 'Not', Left: { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'drama[0-9]' } },
        ['A', 'B', 'D', 'G'],
      ],
      ['AnyRegexMatches Names', { Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: 'ENGLISH\\s+title$' }, ['A']],
      [
        'AllRegexMatches AnidbTags',
        { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: '^(action|school|drama)$' },
        ['A', 'B'],
      ],
      [
        'Not AnyRegexMatches',
        { Type: 'Not', Left: { Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: '^act' } },
        ['B', 'D'],
      ],
      ['StringFuzzyMatches', { Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Parameter: 'Gamma Jorney' }, ['G']],
      ['StringFuzzyMatches (too different)', { Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Parameter: 'Omega' }, []],
      ['AnyFuzzyMatches Names', { Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Parameter: 'chronical' }, ['B']],
      [
        'AnyFuzzyMatches Names vs Right Name',
        { Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Right: { Type: 'Name' } },
        ['A', 'B', 'D', 'G'],
      ],
      [
        'And with two text matchers',
        {
          Type: 'And',
          Left: { Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Parameter: 'academi' },
          Right: { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: 'Academy$' },
        },
        ['A'],
      ],
    ];
    it.each(cases)('%s', async (_name, expression, expected) => {
      expect(await set(expression)).toEqual([...expected].sort());
    });

    it('reads a release group under its new name once AniDB renames it', async () => {
      const db = server.services.db.kysely;
      const contains = (text: string) => set({ Type: 'AnyContains', Left: { Type: 'ReleaseGroupNames' }, Parameter: text });
      await db.updateTable('anidb_release_groups').set({ name: 'Beta Remux' }).where('id', '=', 8).execute();
      try {
        expect(await contains('remux')).toEqual(['B']);
        expect(await contains('raws')).toEqual([]);
      } finally {
        await db.updateTable('anidb_release_groups').set({ name: 'Beta Raws' }).where('id', '=', 8).execute();
      }
    });

    it('answers 400 naming Expression for unknown types and missing parameters', async () => {
      for (const expression of [
        { Type: 'NoSuchThing' },
        { Type: 'HasTag' },
        { Type: 'And', Left: { Type: 'HasTag', Parameter: 'x' } },
        { Type: 'NumberGreaterThan', Left: { Type: 'Name' }, Parameter: '1' },
      ]) {
        const res = await api('POST', '/api/v3/Filter/Preview/Group', { ApplyAtSeriesLevel: true, Expression: expression });
        expect(res.statusCode, JSON.stringify(expression)).toBe(400);
        expect(Object.keys(res.json().errors)[0]).toMatch(/^Expression/);
      }
      const role = await api('POST', '/api/v3/Filter/Preview/Group', {
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'HasCreatorWithRole', Parameter: '600', SecondParameter: 'Painter' },
      });
      expect(role.statusCode).toBe(400);
      expect(role.json().errors).toHaveProperty('Expression');
      const sorting = await api('POST', '/api/v3/Filter/Preview/Group', { Sorting: { Type: 'Nope' } });
      expect(sorting.statusCode).toBe(400);
      expect(sorting.json().errors).toHaveProperty('Sorting');
    });

    it('answers 400 naming the Parameter for invalid, risky or over-long patterns', async () => {
      const cases: Array<[FilterCondition, string]> = [
        [{ Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: '(unclosed' }, 'Expression.Parameter'],
        [{ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '(a+)+$' }, 'Expression.Parameter'],
        [{ Type: 'AllRegexMatches', Left: { Type: 'Names' }, Parameter: '(x)\\1' }, 'Expression.Parameter'],
        [
          { Type: 'Not', Left: { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: 'a'.repeat(201) } },
          'Expression.Left.Parameter',
        ],
        [{ Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Parameter: 'a'.repeat(201) }, 'Expression.Parameter'],
      ];
      for (const [expression, field] of cases) {
        const res = await api('POST', '/api/v3/Filter/Preview/Series', { ApplyAtSeriesLevel: true, Expression: expression });
        expect(res.statusCode, JSON.stringify(expression)).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual([field]);
      }
      const saved = await api('POST', '/api/v3/Filter', {
        Name: 'Broken',
        Expression: { Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '[' },
      });
      expect(saved.json().errors).toHaveProperty(['Expression.Parameter']);
      const missing = await api('POST', '/api/v3/Filter/Preview/Series', {
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'AnyRegexMatches', Left: { Type: 'Names' } },
      });
      expect(missing.statusCode).toBe(400);
    });
  });

  describe('filter expressions (group level)', () => {
    const groupNames = async (expression: FilterCondition) => {
      const res = await api('POST', '/api/v3/Filter/Preview/Group?pageSize=0', { ApplyAtSeriesLevel: false, Expression: expression });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().List.map((g: { Name: string }) => g.Name);
    };
    const cases: Array<[string, FilterCondition, string[]]> = [
      ['StringRegexMatches', { Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: '^Alpha G' }, ['Alpha Group']],
      ['AnyRegexMatches Names', { Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: 'delta' }, ['Alpha Group']],
      [
        'AllRegexMatches AnidbTags',
        { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: '^(action|school|comedy)$' },
        ['Alpha Group'],
      ],
      ['AnyFuzzyMatches Names', { Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Parameter: 'delta tail' }, ['Alpha Group']],
      ['HasReleaseGroupName', { Type: 'HasReleaseGroupName', Parameter: 'Beta Raws' }, ['Beta Chronicle']],
      ['HasAvailableImage', { Type: 'HasAvailableImage', Parameter: 'Backdrop' }, ['Alpha Group']],
      ['HasAvailableImage Poster', { Type: 'HasAvailableImage', Parameter: 'Poster' }, ['Alpha Group', 'Beta Chronicle', 'Gamma Journey']],
      ['HasAvailableImage Logo', { Type: 'HasAvailableImage', Parameter: 'logo' }, ['Alpha Group', 'Beta Chronicle']],
      ['HasMissingEpisodesCollecting', { Type: 'HasMissingEpisodesCollecting' }, ['Alpha Group']],
      [
        'NumberEquals MissingEpisodeCollectingCount',
        { Type: 'NumberEquals', Left: { Type: 'MissingEpisodeCollectingCount' }, Parameter: '1' },
        ['Alpha Group'],
      ],
      ['HasCreatorWithRole', { Type: 'HasCreatorWithRole', Parameter: '601', SecondParameter: 'Actor' }, ['Alpha Group']],
    ];
    it.each(cases)('%s', async (_name, expression, expected) => {
      expect(await groupNames(expression)).toEqual(expected);
    });
  });

  describe('sorting criteria', () => {
    const cases: Array<[string, boolean, string[]]> = [
      ['Name', false, ['A', 'B', 'G', 'D']],
      ['Name', true, ['D', 'G', 'B', 'A']],
      ['SortingName', false, ['A', 'B', 'D', 'G']],
      ['AirDate', false, ['B', 'D', 'A', 'G']],
      ['LastAirDate', false, ['B', 'D', 'A', 'G']],
      ['AddedDate', false, ['D', 'G', 'B', 'A']],
      ['LastAddedDate', false, ['A', 'B', 'D', 'G']],
      ['EpisodeCount', false, ['B', 'G', 'D', 'A']],
      ['TotalEpisodeCount', true, ['A', 'G', 'D', 'B']],
      ['AverageAniDBRating', false, ['D', 'B', 'G', 'A']],
      ['HighestAniDBRating', true, ['A', 'G', 'B', 'D']],
      ['LowestAniDBRating', false, ['D', 'B', 'G', 'A']],
      ['HighestUserRating', true, ['A', 'B', 'G', 'D']],
      ['LowestUserRating', false, ['G', 'D', 'B', 'A']],
      ['SeriesCount', false, ['A', 'B', 'G', 'D']],
      ['SeriesVoteCount', false, ['G', 'D', 'A', 'B']],
      ['SeriesPermanentVoteCount', true, ['A', 'B', 'G', 'D']],
      ['SeriesTemporaryVoteCount', true, ['B', 'A', 'G', 'D']],
      ['WatchedEpisodeCount', true, ['A', 'B', 'G', 'D']],
      ['UnwatchedEpisodeCount', false, ['G', 'A', 'B', 'D']],
      ['MissingEpisodeCount', false, ['B', 'A', 'D', 'G']],
      ['MissingEpisodeCollectingCount', true, ['A', 'B', 'G', 'D']],
      ['MissingEpisodeCollectingCount', false, ['B', 'G', 'D', 'A']],
      ['WatchedDate', false, ['A', 'B', 'G', 'D']],
      ['LastWatchedDate', true, ['A', 'B', 'G', 'D']],
      ['AudioLanguageCount', false, ['G', 'A', 'B', 'D']],
      ['SubtitleLanguageCount', true, ['A', 'B', 'D', 'G']],
    ];
    it.each(cases)('%s (inverted %s)', async (type, inverted, expected) => {
      expect(await match(null, { Type: type, IsInverted: inverted })).toEqual(expected);
    });

    it('chains tie-breakers with Next', async () => {
      expect(await match(null, { Type: 'SeriesCount', IsInverted: false, Next: { Type: 'Name', IsInverted: true } })).toEqual([
        'D',
        'G',
        'B',
        'A',
      ]);
    });

    it('lists every criterion in the catalogue', async () => {
      const res = await api('GET', '/api/v3/Filter/SortingCriteria');
      const types = (res.json() as Array<{ Type: string }>).map((c) => c.Type);
      for (const [type] of cases) expect(types).toContain(type);
      expect(res.json()).toContainEqual({ Type: 'AverageAniDBRating', Name: 'Average Ani DB Rating', Description: expect.any(String) });
    });
  });

  describe('live filter endpoints', () => {
    it('lists top-level groups by name with sizes for the current user', async () => {
      const res = await api('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', {});
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.Total).toBe(3);
      expect(body.List.map((g: { Name: string }) => g.Name)).toEqual(['Alpha Group', 'Beta Chronicle', 'Gamma Journey']);
      const alpha = body.List[0];
      expect(alpha.Size).toBe(2);
      expect(alpha.IDs.MainSeries).toBe(series.D); // the earliest-airing direct series
      expect(alpha.Sizes.Total.Episodes).toBe(5);
      expect(alpha.Sizes.Local.Episodes).toBe(3);
      expect(alpha.Sizes.Watched.Episodes).toBe(1);
      expect(alpha.Sizes.SeriesTypes.TV).toBe(2);
      expect(alpha.SortName).toBe('ALPHA GROUP');
      // Another user has watched nothing.
      const other = (await api('POST', '/api/v3/Filter/Preview/Group', {}, viewerKey)).json();
      expect(other.List[0].Sizes.Watched.Episodes).toBe(0);
    });

    it('pages with pageSize and lifts series matches to their top-level group', async () => {
      const page2 = (await api('POST', '/api/v3/Filter/Preview/Group?pageSize=2&page=2', {})).json();
      expect(page2).toMatchObject({ Total: 3, List: [{ Name: 'Gamma Journey' }] });
      expect((await api('POST', '/api/v3/Filter/Preview/Group?pageSize=2&page=9', {})).json()).toEqual({ Total: 3, List: [] });
      // Far past the end, where the rows before the page are not read along.
      expect((await api('POST', '/api/v3/Filter/Preview/Group?pageSize=2&page=600', {})).json()).toEqual({ Total: 3, List: [] });
      const seriesPaged = (
        await api('POST', '/api/v3/Filter/Preview/Group?pageSize=1&page=2', {
          ApplyAtSeriesLevel: true,
          Sorting: { Type: 'AirDate', IsInverted: false },
        })
      ).json();
      expect(seriesPaged).toMatchObject({ Total: 3, List: [{ IDs: { ID: groups.GA } }] }); // B (2015), then D (2018) lifts GA
      expect((await api('POST', '/api/v3/Filter/Preview/Group?pageSize=0', {})).json().List).toHaveLength(3);
      const search = (
        await api('POST', '/api/v3/Filter/Preview/Group', {
          ApplyAtSeriesLevel: true,
          Expression: { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: 'delta' },
        })
      ).json();
      expect(search.List.map((g: { IDs: { ID: number } }) => g.IDs.ID)).toEqual([groups.GA]);
      expect((await api('POST', '/api/v3/Filter/Preview/Group?pageSize=101', {})).statusCode).toBe(400);
      expect((await api('POST', '/api/v3/Filter/Preview/Group?includeEmpty=false', { ApplyAtSeriesLevel: true })).json().Total).toBe(2);
    });

    it('returns the series of a group under a live filter', async () => {
      const all = (
        await api('POST', `/api/v3/Filter/Preview/Group/${groups.GA}/Series?recursive=true&includeDataFrom=AniDB&includeDataFrom=TMDB`, {})
      ).json();
      expect(all.map((s: { Name: string }) => s.Name)).toEqual(['The Delta Tale', 'Alpha Academy']);
      expect(all[1].AniDB).toMatchObject({
        ID: 1,
        Type: 'TV',
        Titles: expect.arrayContaining([expect.objectContaining({ Name: 'Alpha English Title' })]),
      });
      expect(all[1].Sizes).toMatchObject({ Local: { Episodes: 2 }, Watched: { Episodes: 1 }, Missing: { Episodes: 1 } });
      const filtered = (
        await api('POST', `/api/v3/Filter/Preview/Group/${groups.GA}/Series`, {
          ApplyAtSeriesLevel: true,
          Expression: { Type: 'HasTag', Parameter: 'comedy' },
        })
      ).json();
      expect(filtered.map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([series.D]);
    });

    it('previews series ordered by name', async () => {
      const res = (
        await api('POST', '/api/v3/Filter/Preview/Series?pageSize=2', {
          ApplyAtSeriesLevel: true,
          Sorting: { Type: 'AirDate', IsInverted: true },
        })
      ).json();
      expect(res.Total).toBe(4);
      expect(res.List.map((s: { Name: string }) => s.Name)).toEqual(['Alpha Academy', 'Beta Chronicle']);
      // Pages read by the database are the slices of the whole list; a filter counts only its matches.
      const names = async (query: string, expression?: FilterCondition) => {
        const page = (
          await api('POST', `/api/v3/Filter/Preview/Series?${query}`, { ApplyAtSeriesLevel: true, Expression: expression })
        ).json();
        return { total: page.Total, names: page.List.map((s: { Name: string }) => s.Name) };
      };
      const all = await names('pageSize=0');
      expect(all.total).toBe(4);
      expect([...(await names('pageSize=2&page=1')).names, ...(await names('pageSize=2&page=2')).names]).toEqual(all.names);
      expect(await names('pageSize=2&page=3')).toEqual({ total: 4, names: [] });
      const comedy = await names('pageSize=0', { Type: 'HasTag', Parameter: 'comedy' });
      expect(comedy.names.length).toBeGreaterThan(0);
      expect(comedy.names.length).toBeLessThan(4);
      expect(await names('pageSize=1&page=1', { Type: 'HasTag', Parameter: 'comedy' })).toEqual({
        total: comedy.total,
        names: comedy.names.slice(0, 1),
      });
    });

    it('evaluates group-level filters over the whole group', async () => {
      const res = (
        await api('POST', '/api/v3/Filter/Preview/Group', {
          ApplyAtSeriesLevel: false,
          Expression: { Type: 'And', Left: { Type: 'HasTag', Parameter: 'comedy' }, Right: { Type: 'HasTag', Parameter: 'school' } },
        })
      ).json();
      expect(res.List.map((g: { Name: string }) => g.Name)).toEqual(['Alpha Group']);
      const bySeries = (
        await api('POST', '/api/v3/Filter/Preview/Group', {
          ApplyAtSeriesLevel: true,
          Expression: { Type: 'And', Left: { Type: 'HasTag', Parameter: 'comedy' }, Right: { Type: 'HasTag', Parameter: 'school' } },
        })
      ).json();
      expect(bySeries.Total).toBe(0);
      const count = (
        await api('POST', '/api/v3/Filter/Preview/Group', {
          Expression: { Type: 'NumberEquals', Left: { Type: 'SeriesCount' }, Parameter: '2' },
        })
      ).json();
      expect(count.List.map((g: { Name: string }) => g.Name)).toEqual(['Alpha Group']);
    });

    it('offers the catalogue with the collection’s options', async () => {
      const res = await api('GET', '/api/v3/Filter/Expressions');
      const byId = new Map((res.json() as Array<{ Expression: string }>).map((e) => [e.Expression, e]));
      expect(byId.get('HasTag')).toMatchObject({
        Group: 'Info',
        Type: 'Expression',
        Parameter: 'String',
        PossibleParameters: expect.arrayContaining(['action', 'drama']),
      });
      expect(byId.get('InSeason')).toMatchObject({ PossibleParameterPairs: expect.arrayContaining([['2020', 'Winter']]) });
      expect(byId.get('Names')).toMatchObject({ Group: 'Selector', Type: 'StringSetSelector', Name: 'Names' });
      expect(byId.get('HasReleaseGroupName')).toMatchObject({
        Group: 'Info',
        Parameter: 'String',
        PossibleParameters: ['Beta Raws', 'Invented Subs'],
      });
      expect(byId.get('HasAvailableImage')).toMatchObject({ PossibleParameters: ['Poster', 'Backdrop', 'Logo'] });
      expect(byId.get('HasCreatorWithRole')).toMatchObject({
        Parameter: 'String',
        SecondParameter: 'String',
        PossibleSecondParameters: expect.arrayContaining(['Actor', 'Studio']),
      });
      expect(byId.get('AnyFuzzyMatches')).toMatchObject({
        Group: 'Logic',
        Left: 'StringSetSelector',
        Right: 'StringSelector',
        Parameter: 'String',
      });
      for (const id of [
        'HasResolution',
        'HasPreferredImage',
        'HasMissingEpisodesCollecting',
        'MissingTraktLink',
        'MissingTvDBLink',
        'AllRegexMatches',
        'AnyRegexMatches',
        'StringRegexMatches',
        'StringFuzzyMatches',
        'AvailableImageTypes',
        'PreferredImageTypes',
        'ReleaseGroupNames',
        'MissingEpisodeCollectingCount',
      ]) {
        expect(byId.has(id), id).toBe(true);
      }
      const info = (await api('GET', '/api/v3/Filter/Expressions?groups=Info')).json() as Array<{ Group: string }>;
      expect(info.length).toBeGreaterThan(10);
      expect(info.every((e) => e.Group === 'Info')).toBe(true);
    });
  });

  describe('tag restrictions', () => {
    it('hide restricted series and their groups everywhere', async () => {
      const groupsRes = (await api('POST', '/api/v3/Filter/Preview/Group', {}, viewerKey)).json();
      expect(groupsRes.List.map((g: { Name: string }) => g.Name)).toEqual(['Alpha Group', 'Beta Chronicle']);
      expect(await match({ Type: 'HasTag', Parameter: 'action' }, null, viewerKey)).toEqual(['A']);
      const forbidden = await api('GET', `/api/v3/Group/${groups.GG}`, undefined, viewerKey);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).toBe('Accessing Group is not allowed for the current user');
      expect((await api('GET', '/api/v3/Group?includeEmpty=true', undefined, viewerKey)).json().Total).toBe(2);
      expect((await api('GET', `/api/v3/Series/${series.G}/Group`, undefined, viewerKey)).statusCode).toBe(403);
      const view = (
        await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: [groups.GA, groups.GG], TagFilter: 128, TagLimit: 20 }, viewerKey)
      ).json();
      expect(view.map((v: { ID: number }) => v.ID)).toEqual([groups.GA]);
      expect(view[0]).toMatchObject({ ID: groups.GA, Type: 'TV' });
    });
  });

  describe('WebUI GroupView', () => {
    it('returns type, rating, top tags by weight and custom tags, capped at TagLimit', async () => {
      const view = (
        await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: [groups.GB, groups.GA], TagFilter: 128, TagLimit: 20 })
      ).json();
      expect(view.map((v: { ID: number }) => v.ID)).toEqual([groups.GB, groups.GA]);
      expect(view[0]).toMatchObject({ Type: 'Movie', AirDate: '2015-07-10', Rating: { Value: 600, MaxValue: 1000, Source: 'AniDB' } });
      expect(view[0].Tags.map((t: { Name: string; Source: string }) => `${t.Source}:${t.Name}`)).toEqual(['AniDB:drama', 'User:favourite']);
      // TagFilter drops a category (drama has no parent in the seed, so it counts as Misc = 8); inverted it keeps only it.
      const tagsWith = async (TagFilter: number) =>
        (await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: [groups.GB], TagFilter, TagLimit: 20 }))
          .json()[0]
          .Tags.map((t: { Name: string }) => t.Name);
      expect(await tagsWith(8)).toEqual(['favourite']);
      expect(await tagsWith(2 ** 31 + 8)).toEqual(['drama']);
      expect(await tagsWith(2 ** 31 + 2 ** 30 + 8)).toEqual(['drama', 'favourite']);
      const capped = (await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: [groups.GB], TagLimit: 1 })).json();
      expect(capped[0].Tags).toHaveLength(1);
      const none = (await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: [groups.GB] })).json();
      expect(none[0].Tags).toEqual([]);
      expect((await api('POST', '/api/v3/WebUI/GroupView', { GroupIDs: Array.from({ length: 101 }, (_, i) => i + 1) })).statusCode).toBe(
        400,
      );
    });
  });

  describe('presets', () => {
    it('creates, lists, reads, updates and deletes presets in directories', async () => {
      const dir = await api('POST', '/api/v3/Filter', { Name: 'Saved Seasons', IsDirectory: true });
      expect(dir.statusCode).toBe(200);
      const dirId = dir.json().IDs.ID;
      const created = await api('POST', '/api/v3/Filter', {
        Name: 'Action',
        ParentID: dirId,
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'HasTag', Parameter: 'action' },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({
        Name: 'Action',
        IDs: { ParentFilter: dirId },
        Size: 2,
        Expression: { Type: 'HasTag', Parameter: 'action' },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      const filterId = created.json().IDs.ID;
      const top = (await api('GET', '/api/v3/Filter?includeEmpty=true&pageSize=0')).json();
      // Beside the presets every new collection starts with (collection-defaults.api.test.ts).
      expect(top.List.filter((f: { IDs: { ID: number } }) => f.IDs.ID === dirId)).toEqual([
        expect.objectContaining({ Name: 'Saved Seasons', IsDirectory: true, Size: 1 }),
      ]);
      const children = (await api('GET', `/api/v3/Filter/${dirId}/Filter?pageSize=0`)).json();
      expect(children.List.map((f: { Name: string }) => f.Name)).toEqual(['Action']);
      const read = (await api('GET', `/api/v3/Filter/${filterId}?withConditions=true`)).json();
      expect(read.Expression).toEqual({ Type: 'HasTag', Parameter: 'action' });
      const patched = await api('PATCH', `/api/v3/Filter/${filterId}`, [{ op: 'replace', path: 'Name', value: 'Action!' }]);
      expect(patched.json()).toMatchObject({ Name: 'Action!', Expression: { Type: 'HasTag' } });
      const viaTree = (await api('GET', `/api/v3/Filter/${filterId}/Group`)).json();
      expect(viaTree.Total).toBe(2);
      expect((await api('DELETE', `/api/v3/Filter/${filterId}`)).statusCode).toBe(204);
      expect((await api('GET', `/api/v3/Filter/${filterId}`)).statusCode).toBe(404);
    });

    it('validates presets', async () => {
      const noName = await api('POST', '/api/v3/Filter', { Expression: { Type: 'HasTag', Parameter: 'x' } });
      expect(noName.json().errors).toHaveProperty('Name');
      const badParent = await api('POST', '/api/v3/Filter', { Name: 'x', ParentID: 9999 });
      expect(badParent.json().errors).toHaveProperty('ParentID');
      const dirWithExpression = await api('POST', '/api/v3/Filter', {
        Name: 'x',
        IsDirectory: true,
        Expression: { Type: 'HasVideoFiles' },
      });
      expect(dirWithExpression.json().errors).toHaveProperty('Expression');
      const unknown = await api('POST', '/api/v3/Filter', { Name: 'x', Expression: { Type: 'Bogus' } });
      expect(unknown.json().errors).toHaveProperty('Expression');
      expect((await api('POST', '/api/v3/Filter', { Name: 'x' }, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('saved-filter routes', () => {
    const ids = { dir: 0, sub: 0, action: 0, alphaGroups: 0 };
    const names = (list: Array<{ Name: string }>) => list.map((item) => item.Name);
    beforeAll(async () => {
      ids.dir = (await api('POST', '/api/v3/Filter', { Name: 'Tree', IsDirectory: true })).json().IDs.ID;
      ids.sub = (await api('POST', '/api/v3/Filter', { Name: 'Sub', IsDirectory: true, ParentID: ids.dir })).json().IDs.ID;
      const action = await api('POST', '/api/v3/Filter', {
        Name: 'Action',
        ParentID: ids.sub,
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'HasTag', Parameter: 'action' },
        Sorting: { Type: 'AirDate', IsInverted: true },
      });
      expect(action.statusCode, action.body).toBe(200);
      ids.action = action.json().IDs.ID;
      ids.alphaGroups = (
        await api('POST', '/api/v3/Filter', {
          Name: 'Alpha groups',
          Expression: { Type: 'StringStartsWith', Left: { Type: 'Name' }, Parameter: 'alpha' },
        })
      ).json().IDs.ID;
    });

    it('returns the parent or the top-level ancestor of a filter', async () => {
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Parent`)).json()).toMatchObject({
        IDs: { ID: ids.sub, ParentFilter: ids.dir },
        Name: 'Sub',
        IsDirectory: true,
        Size: 1,
      });
      const top = (await api('GET', `/api/v3/Filter/${ids.action}/Parent?topLevel=true&withConditions=true`)).json();
      expect(top).toMatchObject({ IDs: { ID: ids.dir }, Name: 'Tree' });
      const topLevel = await api('GET', `/api/v3/Filter/${ids.dir}/Parent`);
      expect(topLevel.statusCode).toBe(400);
      expect(topLevel.json().errors).toHaveProperty('filterID');
      expect((await api('GET', '/api/v3/Filter/9999/Parent')).statusCode).toBe(404);
    });

    it('lists the series of a saved filter by name and their ids in filter order', async () => {
      const action = (await api('GET', `/api/v3/Filter/${ids.action}/Series`)).json();
      expect(action.Total).toBe(2);
      expect(names(action.List)).toEqual(['Alpha Academy', 'Gamma Journey']);
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Series?includeMissing=false`)).json().Total).toBe(1);
      expect(letters((await api('GET', `/api/v3/Filter/${ids.action}/Series/OnlyIDs`)).json())).toEqual(['G', 'A']);
      const all = (await api('GET', '/api/v3/Filter/0/Series?pageSize=2&page=2')).json();
      expect(all.Total).toBe(4);
      expect(names(all.List)).toEqual(['Gamma Journey', 'The Delta Tale']);
      expect(names((await api('GET', `/api/v3/Filter/${ids.alphaGroups}/Series`)).json().List)).toEqual([
        'Alpha Academy',
        'The Delta Tale',
      ]);
      expect((await api('GET', '/api/v3/Filter/9999/Series')).statusCode).toBe(404);
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Series?pageSize=101`)).statusCode).toBe(400);
    });

    it('counts letters and lists a group’s series and sub-groups under a saved filter', async () => {
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Group/Letters`)).json()).toEqual({ A: 1, G: 1 });
      expect((await api('GET', '/api/v3/Filter/0/Group/Letters')).json()).toEqual({ A: 1, B: 1, G: 1 });
      expect(
        letters(
          (await api('GET', `/api/v3/Filter/${ids.action}/Group/${groups.GA}/Series`)).json().map((s: { IDs: { ID: number } }) => s.IDs.ID),
        ),
      ).toEqual(['A']);
      const groupLevel = (await api('GET', `/api/v3/Filter/${ids.alphaGroups}/Group/${groups.GA}/Series?includeDataFrom=AniDB`)).json();
      expect(names(groupLevel)).toEqual(['The Delta Tale', 'Alpha Academy']);
      expect(groupLevel[0].AniDB).toBeUndefined();
      expect((await api('GET', `/api/v3/Filter/0/Group/${groups.GA}/Series?includeDataFrom=AniDB`)).json()[0].AniDB).toMatchObject({
        ID: 4,
      });
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Group/${groups.GA}/Group`)).json()).toEqual([]);
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Group/9999/Series`)).statusCode).toBe(404);
      expect((await api('GET', `/api/v3/Filter/${ids.action}/Group/${groups.GG}/Group`, undefined, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('groups', () => {
    it('renames with JSON Patch and marks the name custom; unchanged names change nothing', async () => {
      const res = await api('PATCH', `/api/v3/Group/${groups.GB}`, [
        { op: 'replace', path: 'Name', value: 'My Beta' },
        { op: 'replace', path: 'HasCustomName', value: 'true' },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ Name: 'My Beta', HasCustomName: true });
      const reset = await api('PATCH', `/api/v3/Group/${groups.GB}`, [{ op: 'replace', path: 'HasCustomName', value: false }]);
      expect(reset.json()).toMatchObject({ Name: 'Beta Chronicle', HasCustomName: false });
      const same = await api('PATCH', `/api/v3/Group/${groups.GB}`, [{ op: 'replace', path: 'Name', value: 'Beta Chronicle' }]);
      expect(same.json()).toMatchObject({ Name: 'Beta Chronicle', HasCustomName: false });
    });

    it('sets the preferred series only among the group’s series', async () => {
      const bad = await api('PATCH', `/api/v3/Group/${groups.GA}`, [{ op: 'replace', path: 'PreferredSeriesID', value: series.B }]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('PreferredSeriesID');
      const good = await api('PATCH', `/api/v3/Group/${groups.GA}`, [{ op: 'replace', path: 'PreferredSeriesID', value: series.A }]);
      expect(good.json().IDs).toMatchObject({ PreferredSeries: series.A, MainSeries: series.A, MainAnime: 1 });
      const list = (await api('GET', `/api/v3/Group/${groups.GA}/Series`)).json();
      expect(list[0].IDs.ID).toBe(series.A);
    });

    it('rejects unknown series, unknown parents and empty groups', async () => {
      const unknownSeries = await api('POST', '/api/v3/Group', { SeriesIDs: [9999] });
      expect(unknownSeries.json().errors).toHaveProperty('SeriesIDs');
      const empty = await api('POST', '/api/v3/Group', { Name: 'Nothing' });
      expect(Object.keys(empty.json().errors).sort()).toEqual(['GroupIDs', 'SeriesIDs']);
      const parent = await api('PATCH', `/api/v3/Group/${groups.GA}`, [{ op: 'replace', path: 'ParentGroupID', value: 9999 }]);
      expect(parent.json().errors).toHaveProperty('ParentGroupID');
      const cycle = await api('PATCH', `/api/v3/Group/${groups.GA}`, [{ op: 'replace', path: 'ParentGroupID', value: groups.GA }]);
      expect(cycle.json().errors).toHaveProperty('ParentGroupID');
      expect((await api('GET', '/api/v3/Group/9999')).body).toBe('No Group entry for the given groupID');
    });

    it('moves a series into a new group, nests groups, and deletes', async () => {
      const created = await api('POST', '/api/v3/Group', { PreferredSeriesID: series.D, SeriesIDs: [series.D] });
      expect(created.statusCode, created.body).toBe(201);
      const newId = created.json().IDs.ID;
      expect(created.headers.location).toBe(`/api/v3/Group/${newId}`);
      expect(created.json()).toMatchObject({ Name: 'The Delta Tale', Size: 1, IDs: { MainSeries: series.D } });
      expect((await api('GET', `/api/v3/Group/${groups.GA}`)).json().Size).toBe(1);

      // Nest the new group under Alpha Group: the top-level list shrinks, sizes aggregate.
      const nested = await api('PATCH', `/api/v3/Group/${newId}`, [{ op: 'replace', path: 'ParentGroupID', value: groups.GA }]);
      expect(nested.json().IDs).toMatchObject({ ParentGroup: groups.GA, TopLevelGroup: groups.GA });
      expect((await api('GET', `/api/v3/Group/${newId}/Parent`)).json().IDs.ID).toBe(groups.GA);
      expect((await api('GET', `/api/v3/Group/${newId}/Parent?topLevel=true`)).json().IDs.ID).toBe(groups.GA);
      const topParent = await api('GET', `/api/v3/Group/${groups.GA}/Parent`);
      expect(topParent.statusCode).toBe(400);
      expect(topParent.json().errors).toHaveProperty('groupID');
      expect((await api('GET', '/api/v3/Group/9999/Parent')).statusCode).toBe(404);
      // Relations between the group's series: A's side story B lives elsewhere; D moved into the sub-group.
      expect((await api('GET', `/api/v3/Group/${groups.GA}/Relations`)).json()).toEqual([]);
      expect((await api('GET', `/api/v3/Group/${groups.GA}/Relations?recursive=true`)).json()).toEqual([
        { IDs: { Shoko: series.A, AniDB: 1 }, RelatedIDs: { Shoko: series.D, AniDB: 4 }, Type: 'Sequel', Source: 'AniDB' },
        { IDs: { Shoko: series.D, AniDB: 4 }, RelatedIDs: { Shoko: series.A, AniDB: 1 }, Type: 'Prequel', Source: 'AniDB' },
      ]);
      expect((await api('GET', `/api/v3/Group/${groups.GG}/Relations`, undefined, viewerKey)).statusCode).toBe(403);
      // Sub-groups under a live filter: the sub-group holds D (comedy), not A (action).
      const subIds = async (body: unknown) =>
        (await api('POST', `/api/v3/Filter/Preview/Group/${groups.GA}/Group`, body)).json().map((g: { IDs: { ID: number } }) => g.IDs.ID);
      expect(await subIds({ ApplyAtSeriesLevel: true, Expression: { Type: 'HasTag', Parameter: 'comedy' } })).toEqual([newId]);
      expect(await subIds({ ApplyAtSeriesLevel: true, Expression: { Type: 'HasTag', Parameter: 'action' } })).toEqual([]);
      expect(await subIds({ Expression: { Type: 'StringEquals', Left: { Type: 'Name' }, Parameter: 'the delta tale' } })).toEqual([newId]);
      expect(await subIds({})).toEqual([newId]);
      const top = (await api('POST', '/api/v3/Filter/Preview/Group', {})).json();
      expect(top.Total).toBe(3);
      const alpha = top.List.find((g: { IDs: { ID: number } }) => g.IDs.ID === groups.GA);
      expect(alpha.Sizes).toMatchObject({ SubGroups: 1, Total: { Episodes: 5 } });
      expect(await set({ Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'alpha group' })).toEqual(['A', 'D']);
      // Text matchers in a nested collection: series see their ancestors' names, groups their whole subtree.
      expect(await set({ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '^alpha group$' })).toEqual(['A', 'D']);
      const nestedRegex = (
        await api('POST', '/api/v3/Filter/Preview/Group', {
          ApplyAtSeriesLevel: false,
          Expression: { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: '^comedy$' },
        })
      ).json();
      expect(nestedRegex.List.map((g: { IDs: { ID: number } }) => g.IDs.ID)).toEqual([groups.GA]);
      const subSeries = (
        await api('POST', `/api/v3/Filter/Preview/Group/${groups.GA}/Series?recursive=true`, {
          ApplyAtSeriesLevel: true,
          Expression: { Type: 'HasTag', Parameter: 'comedy' },
        })
      ).json();
      expect(subSeries.map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([series.D]);
      expect((await api('GET', `/api/v3/Series/${series.D}/Group?topLevel=true`)).json().IDs.ID).toBe(groups.GA);
      const subGroups = (await api('GET', `/api/v3/Group/${groups.GA}/Group`)).json();
      expect(subGroups.map((g: { IDs: { ID: number } }) => g.IDs.ID)).toEqual([newId]);
      expect((await api('GET', `/api/v3/Group/${newId}/MainSeries?includeDataFrom=AniDB`)).json()).toMatchObject({
        IDs: { ID: series.D },
        AniDB: { ID: 4 },
      });

      expect((await api('DELETE', `/api/v3/Group/${newId}`, undefined, viewerKey)).statusCode).toBe(403);
      const refused = await api('DELETE', `/api/v3/Group/${newId}`);
      expect(refused.statusCode).toBe(400);
      expect((await api('POST', `/api/v3/Group/${newId}/Recalculate`)).statusCode).toBe(200);
      expect((await api('DELETE', `/api/v3/Group/${newId}?deleteSeries=true`)).statusCode).toBe(204);
      expect((await api('GET', `/api/v3/Group/${newId}`)).statusCode).toBe(404);
      expect(await set({ Type: 'HasTag', Parameter: 'comedy' })).toEqual([]);
    });

    it('counts groups by first letter', async () => {
      expect((await api('GET', '/api/v3/Group/Letters?includeEmpty=true')).json()).toEqual({ A: 1, B: 1, G: 1 });
      expect(
        (
          await api('POST', '/api/v3/Filter/Preview/Group/Letters', {
            ApplyAtSeriesLevel: true,
            Expression: { Type: 'HasTag', Parameter: 'action' },
          })
        ).json(),
      ).toEqual({ A: 1, G: 1 });
    });

    it('lists groups by SortName with startsWith', async () => {
      const res = (await api('GET', '/api/v3/Group?includeEmpty=true&startsWith=b')).json();
      expect(res.List.map((g: { Name: string }) => g.Name)).toEqual(['Beta Chronicle']);
      expect((await api('GET', '/api/v3/Group?includeEmpty=false')).json().Total).toBe(2);
    });
  });
});
