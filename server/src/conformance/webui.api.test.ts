import { describe, expect, it } from 'vitest';
import type {
  AnidbAnimeRecommendedForYou,
  AuthResult,
  ComponentVersionSet,
  DashboardCollectionStats,
  DashboardEpisode,
  DashboardSeriesSummary,
  Episode,
  Filter,
  FilterExpressionHelp,
  Group,
  ListResult,
  QueueItem,
  Role,
  Series,
  SeriesFileSummary,
  ServerSettings,
  ServerStatus,
  Tag,
  WebUIGroupExtra,
  WebUISeriesExtra,
} from '@shoko-ts/contract';
import { CLIENT_USER, DEMO_COLLECTIONS, useDemoCollection, ISO_DATE_TIME, jsonOf, type SentFile } from '../test/demo-collection.js';

/**
 * The official web UI v2.5 against the demo collection: login page, layout, dashboard, collection, a group and a series
 * page, in the order the pages ask, with axios' query strings (repeated keys, `true`/`false`, empty strings kept).
 * See README.md for where each call and field comes from.
 */
describe.each(DEMO_COLLECTIONS)('conformance: Shoko web UI v2.5 (%s)', (_arrival, startCollection) => {
  const demo = useDemoCollection(startCollection);
  let key = '';
  const KIRI = 9001;
  const get = (url: string) => demo().server.request({ method: 'GET', url: `/api/v3/${url}`, key });
  const post = (url: string, body: unknown) => demo().server.request({ method: 'POST', url: `/api/v3/${url}`, key, body });
  const series = () => demo().seriesByAnime.get(KIRI)!;

  /** The dashboard's episode card (DashboardEpisodeDetailsType). */
  const expectDashboardEpisode = (episode: DashboardEpisode) => {
    expect(episode.IDs).toEqual(
      expect.objectContaining({
        ID: expect.any(Number),
        Series: expect.any(Number),
        ShokoEpisode: expect.any(Number),
        ShokoSeries: expect.any(Number),
      }),
    );
    expect('ShokoFile' in episode.IDs).toBe(true);
    expect(episode).toEqual(
      expect.objectContaining({
        Title: expect.any(String),
        Number: expect.any(Number),
        Type: expect.any(String),
        SeriesTitle: expect.any(String),
      }),
    );
  };
  /** A collection group card (CollectionGroupType). */
  const expectGroup = (group: Group) => {
    expect(group.IDs).toEqual(
      expect.objectContaining({ ID: expect.any(Number), MainSeries: expect.any(Number), TopLevelGroup: expect.any(Number) }),
    );
    expect('ParentGroup' in group.IDs).toBe(true);
    expect(group).toEqual(
      expect.objectContaining({
        Name: expect.any(String),
        Size: expect.any(Number),
        HasCustomName: expect.any(Boolean),
        Images: expect.any(Object),
      }),
    );
    expect(group.Sizes.SeriesTypes).toEqual(
      expect.objectContaining({ TV: expect.any(Number), Movie: expect.any(Number), OVA: expect.any(Number) }),
    );
    expect(group.Sizes.Local.Episodes).toEqual(expect.any(Number));
    expect(group.Sizes.Total.Episodes).toEqual(expect.any(Number));
    expect(group.Sizes.SubGroups).toEqual(expect.any(Number));
  };
  /** A series as the series page and the poster cards read it (SeriesType). */
  const expectSeries = (s: Series) => {
    expect(s.IDs).toEqual(
      expect.objectContaining({
        ID: expect.any(Number),
        ParentGroup: expect.any(Number),
        TopLevelGroup: expect.any(Number),
        AniDB: expect.any(Number),
      }),
    );
    expect(s).toEqual(
      expect.objectContaining({ Name: expect.any(String), Size: expect.any(Number), Images: expect.any(Object), Links: expect.any(Array) }),
    );
    expect(s.Created).toMatch(ISO_DATE_TIME);
    expect(s.Updated).toMatch(ISO_DATE_TIME);
    expect(s.Sizes.Local).toEqual(expect.objectContaining({ Episodes: expect.any(Number), Specials: expect.any(Number) }));
  };

  it('login page: GET Init/Version without a key', async () => {
    const version = jsonOf<ComponentVersionSet>(await demo().server.request({ method: 'GET', url: '/api/v3/Init/Version' }));
    expect(version.Server).toEqual(expect.objectContaining({ Version: expect.any(String), ReleaseChannel: expect.any(String) }));
  });

  it('login page: GET Init/Status', async () => {
    const status = jsonOf<ServerStatus>(await demo().server.request({ method: 'GET', url: '/api/v3/Init/Status' }));
    expect(status.State).toBe('Started');
  });

  it('login page: GET Image/Random/Backdrop/Metadata (a miss is tolerated, not a crash)', async () => {
    const res = await demo().server.request({ method: 'GET', url: '/api/v3/Image/Random/Backdrop/Metadata' });
    // No backdrop yet is Shoko's 500 with a text; the UI falls back to its bundled image.
    expect([200, 500]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json()).toEqual(expect.objectContaining({ Source: expect.any(String), ID: expect.anything() }));
    else expect(res.body).toBe('Unable to find a random image to send.');
  });

  it('login: POST /api/auth with device web-ui', async () => {
    const res = await demo().server.request({ method: 'POST', url: '/api/auth', body: { ...CLIENT_USER, device: 'web-ui' } });
    key = jsonOf<AuthResult>(res).apikey;
    expect(key).toEqual(expect.any(String));
    expect(key.length).toBeGreaterThan(0);
    // Imported from Shoko: Shoko's password logs in as above, and the client goes on with the key Shoko gave it.
    key = demo().shokoApiKey ?? key;
  });

  it('layout: GET Settings', async () => {
    const settings = jsonOf<ServerSettings>(await get('Settings'));
    // The UI parses this text as JSON ('' counts as no settings yet) and merges its defaults in.
    expect(typeof settings.WebUI_Settings).toBe('string');
    expect(() => JSON.parse(settings.WebUI_Settings === '' ? '{}' : settings.WebUI_Settings)).not.toThrow();
    expect(settings.AniDb).toEqual(expect.any(Object));
  });

  it('layout: GET User/Current', async () => {
    const user = jsonOf(await get('User/Current'));
    expect(user).toEqual(
      expect.objectContaining({
        ID: expect.any(Number),
        Username: 'Default',
        IsAdmin: true,
        CommunitySites: expect.any(Array),
        RestrictedTags: expect.any(Array),
      }),
    );
  });

  it('dashboard: GET Dashboard/Stats', async () => {
    const stats = jsonOf<DashboardCollectionStats>(await get('Dashboard/Stats'));
    for (const field of [
      'FileCount',
      'SeriesCount',
      'GroupCount',
      'FileSize',
      'FinishedSeries',
      'WatchedEpisodes',
      'WatchedHours',
      'PercentDuplicate',
      'MissingEpisodes',
      'MissingEpisodesCollecting',
      'UnrecognizedFiles',
      'SeriesWithMissingLinks',
      'EpisodesWithMultipleFiles',
      'FilesWithDuplicateLocations',
    ] as const) {
      expect(stats[field], field).toEqual(expect.any(Number));
    }
    expect(stats.SeriesCount).toBe(5);
    expect(stats.UnrecognizedFiles).toBe(1);
  });

  it('dashboard: GET Dashboard/SeriesSummary', async () => {
    const summary = jsonOf<DashboardSeriesSummary>(await get('Dashboard/SeriesSummary'));
    for (const field of ['Series', 'OVA', 'Movie', 'Web', 'Other'] as const) expect(summary[field], field).toEqual(expect.any(Number));
    expect(summary.Movie).toBe(1);
    expect(summary.OVA).toBe(1);
  });

  it('dashboard: GET ImportFolder', async () => {
    const folders = jsonOf(await get('ImportFolder'));
    expect(folders).toEqual([
      expect.objectContaining({
        ID: demo().importFolderId,
        Name: 'Demo Library',
        Path: expect.any(String),
        DropFolderType: expect.any(String),
      }),
    ]);
  });

  it('dashboard: GET Queue/Items?pageSize=100&showAll=true', async () => {
    const queue = jsonOf<ListResult<QueueItem>>(await get('Queue/Items?pageSize=100&showAll=true'));
    expect(queue.Total).toEqual(expect.any(Number));
    expect(queue.List).toEqual(expect.any(Array));
  });

  it('dashboard: GET File?pageSize=20&include_only=Unrecognized&sortOrder=-16&page=1', async () => {
    const files = jsonOf<ListResult<SentFile>>(await get('File?pageSize=20&include_only=Unrecognized&sortOrder=-16&page=1'));
    expect(files.Total).toBe(1);
    expect(files.List[0]).toEqual(
      expect.objectContaining({ ID: expect.any(Number), Size: expect.any(Number), Hashes: expect.any(Object) }),
    );
    expect(files.List[0]!.Locations[0]!.RelativePath).toMatch(/Mystery Release - 01\.mkv$/);
    expect(files.List[0]!.Created).toMatch(ISO_DATE_TIME);
  });

  it('dashboard: GET Dashboard/RecentlyAddedSeries?includeRestricted=false&pageSize=20', async () => {
    const recent = jsonOf<ListResult<Series>>(await get('Dashboard/RecentlyAddedSeries?includeRestricted=false&pageSize=20'));
    expect(recent.List.length).toBe(5);
    for (const s of recent.List) expectSeries(s);
  });

  it('dashboard: GET Dashboard/RecentlyAddedEpisodes?includeRestricted=false&pageSize=30', async () => {
    const recent = jsonOf<ListResult<DashboardEpisode>>(await get('Dashboard/RecentlyAddedEpisodes?includeRestricted=false&pageSize=30'));
    expect(recent.List.length).toBeGreaterThan(0);
    for (const episode of recent.List) expectDashboardEpisode(episode);
  });

  it('dashboard: GET Dashboard/ContinueWatchingEpisodes?includeRestricted=false&pageSize=20', async () => {
    const continuing = jsonOf<ListResult<DashboardEpisode>>(
      await get('Dashboard/ContinueWatchingEpisodes?includeRestricted=false&pageSize=20'),
    );
    expect(continuing.List).toEqual([]);
  });

  it('dashboard: GET Dashboard/NextUpEpisodes?includeRestricted=false&onlyUnwatched=true&pageSize=20', async () => {
    const next = jsonOf<ListResult<DashboardEpisode>>(
      await get('Dashboard/NextUpEpisodes?includeRestricted=false&onlyUnwatched=true&pageSize=20'),
    );
    expect(next.List).toEqual(expect.any(Array));
    for (const episode of next.List) expectDashboardEpisode(episode);
  });

  it('dashboard: GET Series/AniDB/RecommendedForYou?includeRestricted=false&pageSize=20', async () => {
    const recommended = jsonOf<ListResult<AnidbAnimeRecommendedForYou>>(
      await get('Series/AniDB/RecommendedForYou?includeRestricted=false&pageSize=20'),
    );
    expect(recommended.List).toEqual(expect.any(Array));
  });

  it('dashboard: GET Dashboard/AniDBCalendar?showAll=false&includeRestricted=false, then showAll=true', async () => {
    expect(jsonOf(await get('Dashboard/AniDBCalendar?showAll=false&includeRestricted=false'))).toEqual(expect.any(Array));
    expect(jsonOf(await get('Dashboard/AniDBCalendar?showAll=true&includeRestricted=false'))).toEqual(expect.any(Array));
  });

  it('collection: POST Filter/Preview/Group?pageSize=50&randomImages=false&page=1 with {}', async () => {
    const groups = jsonOf<ListResult<Group>>(await post('Filter/Preview/Group?pageSize=50&randomImages=false&page=1', {}));
    // The two Kiri seasons share a group: four groups for five series.
    expect(groups.Total).toBe(4);
    for (const group of groups.List) expectGroup(group);
    expect(groups.List.map((g) => g.Name)).toContain('Kiri no Toudai Yuubinkyoku');
  });

  it('collection (list view): POST WebUI/GroupView', async () => {
    const groups = jsonOf<ListResult<Group>>(await post('Filter/Preview/Group?pageSize=50&randomImages=false&page=1', {}));
    const ids = groups.List.map((g) => g.IDs.ID);
    const extras = jsonOf<WebUIGroupExtra[]>(await post('WebUI/GroupView', { GroupIDs: ids, TagFilter: 128, TagLimit: 20 }));
    expect(extras).toHaveLength(ids.length);
    for (const extra of extras) {
      expect(extra).toEqual(expect.objectContaining({ ID: expect.any(Number), Type: expect.any(String), Tags: expect.any(Array) }));
      expect('AirDate' in extra && 'EndDate' in extra && 'Rating' in extra).toBe(true);
    }
  });

  it('filter sidebar, add criteria: GET Filter/Expressions', async () => {
    const expressions = jsonOf<FilterExpressionHelp[]>(await get('Filter/Expressions'));
    expect(expressions.length).toBeGreaterThan(0);
    for (const expression of expressions) {
      expect(expression).toEqual(
        expect.objectContaining({
          Expression: expect.any(String),
          Name: expect.any(String),
          Group: expect.any(String),
          Type: expect.any(String),
        }),
      );
    }
    expect(expressions.map((e) => e.Expression)).toEqual(expect.arrayContaining(['HasTag', 'HasCustomTag']));
  });

  it('filter sidebar, tag criteria: GET Tag/AniDB?pageSize=0&excludeDescriptions=true and Tag/User?pageSize=0&excludeDescriptions=true', async () => {
    const anidb = jsonOf<ListResult<Tag>>(await get('Tag/AniDB?pageSize=0&excludeDescriptions=true'));
    expect(anidb.List.map((t) => t.Name)).toContain('lighthouse');
    for (const tag of anidb.List)
      expect(tag).toEqual(expect.objectContaining({ ID: expect.any(Number), Name: expect.any(String), Source: 'AniDB' }));
    const user = jsonOf(await get('Tag/User?pageSize=0&excludeDescriptions=true'));
    expect(user).toEqual(expect.objectContaining({ Total: expect.any(Number), List: expect.any(Array) }));
  });

  it('filter sidebar, save preset: GET Filter?includeEmpty=true&pageSize=0', async () => {
    const filters = jsonOf<ListResult<Filter>>(await get('Filter?includeEmpty=true&pageSize=0'));
    // A fresh server may have no saved filters; any it lists carry what the preset list reads.
    expect(filters.Total).toBe(filters.List.length);
    for (const filter of filters.List) {
      expect(filter.IDs).toEqual(expect.objectContaining({ ID: expect.any(Number) }));
      // Shoko leaves ParentFilter out when a filter has no parent (contract collection.md 2.7); only the collection
      // imported from Shoko lists filters here (Shoko's default presets), so only it reaches this check.
      if ('ParentFilter' in filter.IDs) expect(filter.IDs.ParentFilter).toEqual(expect.any(Number));
      expect(filter).toEqual(
        expect.objectContaining({ Name: expect.any(String), IsLocked: expect.any(Boolean), Size: expect.any(Number) }),
      );
    }
  });

  it('group: GET Group/{id}, then POST Filter/Preview/Group/{id}/Series with the series-view query', async () => {
    const s = jsonOf<Series>(await get(`Series/${series()}`));
    const group = jsonOf<Group>(await get(`Group/${s.IDs.ParentGroup}`));
    expectGroup(group);
    expect(group.Size).toBe(2);
    const members = jsonOf<Series[]>(
      await post(
        `Filter/Preview/Group/${s.IDs.ParentGroup}/Series?randomImages=false&includeDataFrom=AniDB&includeDataFrom=TMDB&recursive=true&includeMissing=true`,
        {},
      ),
    );
    expect(members).toHaveLength(2);
    for (const member of members) expectSeries(member);
    expect(members.map((m) => m.IDs.AniDB).sort()).toEqual([9001, 9002]);
  });

  it('series page: GET Series/{id}?includeDataFrom=AniDB&includeDataFrom=TMDB', async () => {
    const s = jsonOf<Series>(await get(`Series/${series()}?includeDataFrom=AniDB&includeDataFrom=TMDB`));
    expectSeries(s);
    expect(s.IDs.AniDB).toBe(KIRI);
    expect(s.IDs.TMDB).toEqual({ Movie: [], Show: [] });
    expect(s.AniDB).toEqual(
      expect.objectContaining({ ID: KIRI, Type: 'TV', Restricted: false, Title: 'Kiri no Toudai Yuubinkyoku', Titles: expect.any(Array) }),
    );
    expect(s.AniDB?.Titles.find((t) => t.Type === 'Main')).toEqual(
      expect.objectContaining({ Name: 'Kiri no Toudai Yuubinkyoku', Language: 'x-jat' }),
    );
    expect(s.AniDB?.AirDate).toBe('2021-04-06');
    expect(s.AniDB?.Rating).toEqual(expect.objectContaining({ Value: expect.any(Number), MaxValue: expect.any(Number) }));
    expect(s.TMDB).toEqual({ Movies: [], Shows: [] });
    const group = jsonOf<Group>(await get(`Group/${s.IDs.ParentGroup}`));
    expect(group.IDs.ID).toBe(s.IDs.ParentGroup);
  });

  it('overview tab: GET WebUI/Series/{id}', async () => {
    const overview = jsonOf<WebUISeriesExtra>(await get(`WebUI/Series/${series()}`));
    expect(overview).toEqual(
      expect.objectContaining({ FirstAirSeason: expect.any(String), Studios: expect.any(Array), Producers: expect.any(Array) }),
    );
    expect('SourceMaterial' in overview && 'RuntimeLength' in overview).toBe(true);
  });

  it('overview tab: GET Series/{id}/NextUpEpisode?includeDataFrom=AniDB&includeMissing=false&onlyUnwatched=false', async () => {
    const next = jsonOf<Episode>(
      await get(`Series/${series()}/NextUpEpisode?includeDataFrom=AniDB&includeMissing=false&onlyUnwatched=false`),
    );
    expect(next.IDs).toEqual(expect.objectContaining({ ID: expect.any(Number), AniDB: expect.any(Number), ParentSeries: series() }));
    expect(next.AniDB).toEqual(expect.objectContaining({ Type: 'Episode', EpisodeNumber: 1 }));
  });

  it('overview tab: GET Series/{id}/AniDB/Related, AniDB/Similar and Cast', async () => {
    const related = jsonOf(await get(`Series/${series()}/AniDB/Related`));
    expect(related).toEqual([expect.objectContaining({ ID: 9002, ShokoID: demo().seriesByAnime.get(9002), Relation: 'Sequel' })]);
    expect(jsonOf(await get(`Series/${series()}/AniDB/Similar`))).toEqual(expect.any(Array));
    const cast = jsonOf<Role[]>(await get(`Series/${series()}/Cast`));
    expect(cast).toEqual(expect.any(Array));
    for (const role of cast)
      expect(role).toEqual(
        expect.objectContaining({ RoleName: expect.any(String), Staff: expect.objectContaining({ Name: expect.any(String) }) }),
      );
  });

  it('episodes tab: GET Series/{id}/Episode with the tab defaults and an empty search', async () => {
    const episodes = jsonOf<ListResult<Episode>>(
      await get(
        `Series/${series()}/Episode?pageSize=26&includeDataFrom=AniDB&type=Episode&includeMissing=false&includeWatched=true&includeHidden=false&includeUnaired=false&search=&page=1`,
      ),
    );
    expect(episodes.Total).toBe(3);
    expect(episodes.List.map((e) => e.AniDB?.EpisodeNumber)).toEqual([1, 2, 3]);
    for (const episode of episodes.List) {
      expect(episode.IDs).toEqual(expect.objectContaining({ ID: expect.any(Number), AniDB: expect.any(Number), ParentSeries: series() }));
      expect(episode).toEqual(
        expect.objectContaining({ Name: expect.any(String), Size: expect.any(Number), IsHidden: false, Duration: expect.any(String) }),
      );
      expect('Watched' in episode).toBe(true);
      expect(episode.AniDB).toEqual(
        expect.objectContaining({ Type: 'Episode', EpisodeNumber: expect.any(Number), Rating: expect.any(Object) }),
      );
    }
  });

  it('episode opened: GET Episode/{id}/File?includeDataFrom=AniDB&include=AbsolutePaths&include=MediaInfo', async () => {
    const episodes = jsonOf<ListResult<Episode>>(
      await get(`Series/${series()}/Episode?pageSize=26&includeDataFrom=AniDB&type=Episode&page=1`),
    );
    const first = episodes.List.find((e) => e.AniDB?.EpisodeNumber === 1)!;
    const files = jsonOf<SentFile[] | ListResult<SentFile>>(
      await get(`Episode/${first.IDs.ID}/File?includeDataFrom=AniDB&include=AbsolutePaths&include=MediaInfo`),
    );
    const list = Array.isArray(files) ? files : files.List;
    // Two releases of episode 1: Lantern and Harbour Subs.
    expect(list).toHaveLength(2);
    for (const file of list) {
      expect(file.Locations[0]!.AbsolutePath).toMatch(/Kiri no Toudai Yuubinkyoku - 01/);
      expect(file.MediaInfo).toEqual(expect.any(Object));
      expect(file.AniDB?.ReleaseGroup).toEqual(expect.objectContaining({ Name: expect.any(String) }));
    }
    expect(list.map((f) => f.AniDB?.ReleaseGroup.Name).sort()).toEqual(['Harbour Subs', 'Lantern Subs']);
  });

  it('files tab: GET WebUI/Series/{id}/FileSummary with the tab groupBy', async () => {
    const summary = jsonOf<SeriesFileSummary>(
      await get(
        `WebUI/Series/${series()}/FileSummary?groupBy=GroupName,FileVersion,FileLocation,AudioLanguages,SubtitleLanguages,VideoResolution`,
      ),
    );
    expect(summary.Overview).toEqual(expect.any(Object));
    expect(summary.Groups.length).toBeGreaterThan(0);
    expect(summary.Groups.map((g) => g.GroupName)).toEqual(expect.arrayContaining(['Lantern Subs', 'Harbour Subs']));
    expect(summary.MissingEpisodes).toEqual(expect.any(Array));
  });

  it('tags tab: GET Series/{id}/Tags?filter=1', async () => {
    const tags = jsonOf<Tag[]>(await get(`Series/${series()}/Tags?filter=1`));
    expect(tags).toEqual(expect.any(Array));
    for (const tag of tags)
      expect(tag).toEqual(expect.objectContaining({ ID: expect.any(Number), Name: expect.any(String), Source: expect.any(String) }));
  });
});
