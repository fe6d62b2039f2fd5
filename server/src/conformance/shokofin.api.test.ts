import { describe, expect, it } from 'vitest';
import type {
  AuthResult,
  ComponentVersionSet,
  Episode,
  FileUserStats,
  Group,
  ImportFolder,
  Images,
  ListResult,
  Role,
  Series,
  Tag,
} from '@shoko-ts/contract';
import {
  CLIENT_USER,
  DATE_ONLY,
  DEMO_COLLECTIONS,
  useDemoCollection,
  ISO_DATE_TIME,
  TIME_SPAN,
  jsonOf,
  type SentFile,
  type XRefFile,
} from '../test/demo-collection.js';

/**
 * Shokofin (the Jellyfin plugin) against the demo collection: the calls of a library scan, of playback sync and of
 * custom tags, in the plugin's order and with its query strings as .NET sends them (C# booleans `True`/`False`,
 * `Uri.EscapeDataString` paths, an empty text/plain body on GET and PATCH). The checks follow what System.Text.Json
 * needs to read the plugin's models: case-sensitive names, no null in non-nullable members, ISO dates, TimeSpan
 * text and enum names. See README.md for where each call and field comes from.
 */

/** .NET's Uri.EscapeDataString: everything but RFC 3986 unreserved characters is escaped. */
const escapeDataString = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const EPISODE_TYPES = [
  'Other',
  'Unknown',
  'Episode',
  'Normal',
  'Special',
  'Trailer',
  'Credits',
  'ThemeSong',
  'OpeningSong',
  'EndingSong',
  'Parody',
  'Interview',
  'Extra',
];
const SERIES_TYPES = ['Unknown', 'Other', 'TV', 'TVSpecial', 'Web', 'Movie', 'OVA'];
const FILE_SOURCES = ['Unknown', 'Other', 'TV', 'DVD', 'BluRay', 'Web', 'VHS', 'VCD', 'LaserDisc', 'Camera'];

const isInt = (value: unknown) => Number.isInteger(value);
const expectInt = (value: unknown, what: string) => expect(isInt(value), `${what} = ${JSON.stringify(value)} (int)`).toBe(true);
const expectIntList = (value: unknown, what: string) => {
  expect(Array.isArray(value), `${what} (List<int>)`).toBe(true);
  for (const item of value as unknown[]) expectInt(item, what);
};
const expectDateTime = (value: unknown, what: string) => expect(value, `${what} (DateTime)`).toMatch(ISO_DATE_TIME);
const expectOptionalDateTime = (value: unknown, what: string) => {
  if (value !== null && value !== undefined) expectDateTime(value, what);
};
const expectTimeSpan = (value: unknown, what: string) => expect(value, `${what} (TimeSpan)`).toMatch(TIME_SPAN);
/** A member the model has but the server may leave out: System.Text.Json keeps the default then; only null breaks it. */
const expectTimeSpanIfPresent = (value: unknown, what: string) => {
  if (value !== undefined) expectTimeSpan(value, what);
};

/** Shokofin's File model (with its CrossReference, Location, AniDB and HashMap members). */
function expectShokofinFile(file: SentFile) {
  expectInt(file.ID, 'File.ID');
  expectInt(file.Size, 'File.Size');
  expectTimeSpan(file.Duration, 'File.Duration');
  expectDateTime(file.Created, 'File.Created');
  expectOptionalDateTime(file.Imported, 'File.Imported');
  expect(typeof (file.Resolution ?? ''), 'File.Resolution').toBe('string');
  for (const hash of ['ED2K', 'SHA1', 'CRC32', 'MD5'] as const) expect(typeof file.Hashes[hash], `Hashes.${hash}`).toBe('string');
  expect(file.Locations.length).toBeGreaterThan(0);
  for (const location of file.Locations) {
    expectInt(location.ImportFolderID, 'Location.ImportFolderID');
    expect(typeof location.RelativePath).toBe('string');
    expect(location.RelativePath.length).toBeGreaterThan(0);
    // The model maps `Accessible` (Shoko sends `IsAccessible`); absent, it stays false, and the plugin never reads it.
    expect(('Accessible' in location ? location.Accessible : undefined) ?? false, 'Location.Accessible (bool)').toEqual(
      expect.any(Boolean),
    );
  }
  // Without include=XRefs Shoko leaves SeriesIDs out; the model's list then stays empty.
  expect(file.SeriesIDs ?? [], 'File.SeriesIDs').toEqual(expect.any(Array));
  for (const xref of file.SeriesIDs ?? []) {
    expectInt(xref.SeriesID.AniDB, 'SeriesID.AniDB');
    expect(xref.SeriesID.ID === null || isInt(xref.SeriesID.ID), 'SeriesID.ID (int?)').toBe(true);
    for (const episode of xref.EpisodeIDs) {
      expectInt(episode.AniDB, 'EpisodeIDs[].AniDB');
      expect(episode.ID === null || isInt(episode.ID), 'EpisodeIDs[].ID (int?)').toBe(true);
    }
  }
  if (file.AniDB !== null && file.AniDB !== undefined) {
    expectInt(file.AniDB.ID, 'File.AniDB.ID');
    expect(FILE_SOURCES).toContain(file.AniDB.Source);
    expectInt(file.AniDB.ReleaseGroup.ID, 'ReleaseGroup.ID');
    expectInt(file.AniDB.Version, 'File.AniDB.Version');
    expect(typeof file.AniDB.OriginalFileName).toBe('string');
    expect(typeof file.AniDB.IsDeprecated).toBe('boolean');
    expect(typeof file.AniDB.Chaptered).toBe('boolean');
    expectOptionalDateTime(file.AniDB.ReleaseDate, 'File.AniDB.ReleaseDate');
    expectDateTime(file.AniDB.Updated, 'File.AniDB.Updated');
  }
}

/** Shokofin's ShokoSeries model with its AnidbAnimeWithDate. */
function expectShokofinSeries(series: Series) {
  expectInt(series.IDs.ID, 'Series.IDs.ID');
  expectInt(series.IDs.ParentGroup, 'Series.IDs.ParentGroup');
  expectInt(series.IDs.TopLevelGroup, 'Series.IDs.TopLevelGroup');
  expectInt(series.IDs.AniDB, 'Series.IDs.AniDB');
  expectIntList(series.IDs.TMDB.Movie, 'Series.IDs.TMDB.Movie');
  expectIntList(series.IDs.TMDB.Show, 'Series.IDs.TMDB.Show');
  expect(typeof series.Name).toBe('string');
  expectDateTime(series.Created, 'Series.Created');
  expectDateTime(series.Updated, 'Series.Updated');
  const anidb = series.AniDB!;
  expectInt(anidb.ID, 'Series.AniDB.ID');
  expect(SERIES_TYPES).toContain(anidb.Type);
  expect(typeof anidb.Title).toBe('string');
  expect(typeof anidb.Restricted).toBe('boolean');
  expectInt(anidb.EpisodeCount, 'Series.AniDB.EpisodeCount');
  expect(anidb.Titles.length).toBeGreaterThan(0);
  for (const title of anidb.Titles)
    expect(title).toEqual(expect.objectContaining({ Name: expect.any(String), Language: expect.any(String) }));
  expect(typeof anidb.Rating.Value).toBe('number');
  expectInt(anidb.Rating.MaxValue, 'Series.AniDB.Rating.MaxValue');
  // System.Text.Json reads a date-only ISO text into DateTime too.
  if (anidb.AirDate !== null && anidb.AirDate !== undefined)
    expect(anidb.AirDate).toMatch(new RegExp(`${DATE_ONLY.source}|${ISO_DATE_TIME.source}`));
  expect(anidb.Poster).toEqual(expect.any(Object));
  for (const source of ['Unknown', 'Other', 'TV', 'DVD', 'BluRay', 'Web', 'VHS', 'VCD', 'LaserDisc', 'Camera'] as const) {
    expectInt(series.Sizes.FileSources[source], `Sizes.FileSources.${source}`);
  }
  expectInt(series.Sizes.Total.Episodes, 'Sizes.Total.Episodes');
}

/** Shokofin's ShokoEpisode model with its AnidbEpisode. */
function expectShokofinEpisode(episode: Episode) {
  expectInt(episode.IDs.ID, 'Episode.IDs.ID');
  expectInt(episode.IDs.ParentSeries, 'Episode.IDs.ParentSeries');
  expectInt(episode.IDs.AniDB, 'Episode.IDs.AniDB');
  expectIntList(episode.IDs.TMDB.Episode, 'Episode.IDs.TMDB.Episode');
  expectIntList(episode.IDs.TMDB.Movie, 'Episode.IDs.TMDB.Movie');
  expect(typeof episode.Name).toBe('string');
  expectTimeSpan(episode.Duration, 'Episode.Duration');
  expect(typeof episode.IsHidden).toBe('boolean');
  expectInt(episode.Size, 'Episode.Size');
  expectDateTime(episode.Created, 'Episode.Created');
  expectDateTime(episode.Updated, 'Episode.Updated');
  const anidb = episode.AniDB!;
  expectInt(anidb.ID, 'Episode.AniDB.ID');
  expectInt(anidb.AnimeID, 'Episode.AniDB.AnimeID');
  expectTimeSpanIfPresent('Duration' in anidb ? anidb.Duration : undefined, 'Episode.AniDB.Duration');
  expect(EPISODE_TYPES).toContain(anidb.Type);
  expectInt(anidb.EpisodeNumber, 'Episode.AniDB.EpisodeNumber');
  expect(Array.isArray(anidb.Titles)).toBe(true);
  expect(typeof anidb.Rating.Value).toBe('number');
}

/** Shokofin's ShokoGroup model. */
function expectShokofinGroup(group: Group) {
  expectInt(group.IDs.ID, 'Group.IDs.ID');
  expectInt(group.IDs.MainSeries, 'Group.IDs.MainSeries');
  expectInt(group.IDs.TopLevelGroup, 'Group.IDs.TopLevelGroup');
  expect(group.IDs.ParentGroup === null || isInt(group.IDs.ParentGroup)).toBe(true);
  expect(typeof group.Name).toBe('string');
  expect(typeof group.HasCustomDescription).toBe('boolean');
  expectInt(group.Size, 'Group.Size');
  expectInt(group.Sizes.SubGroups, 'Group.Sizes.SubGroups');
  expectDateTime(group.Created, 'Group.Created');
  expectDateTime(group.Updated, 'Group.Updated');
}

describe.each(DEMO_COLLECTIONS)('conformance: Shokofin (Jellyfin) (%s)', (_arrival, startCollection) => {
  const demo = useDemoCollection(startCollection);
  let key = '';
  const KIRI = 9001;
  const EPISODE_1 = 'Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - 01 [1080p].mkv';
  /** What HttpClient sends for the plugin's GET and PATCH calls: header apikey and an empty text/plain body. */
  const call = (method: string, url: string, apiKey = key) =>
    demo().server.app.inject({
      method: method as 'GET',
      url,
      headers: { apikey: apiKey, 'content-type': 'text/plain; charset=utf-8' },
      payload: '',
    });
  const get = (url: string) => call('GET', url);
  const series = () => demo().seriesByAnime.get(KIRI)!;

  it('GET /api/v3/Init/Version (no key): Server.Version is a System.Version, the channel a known name', async () => {
    const version = jsonOf<ComponentVersionSet>(await demo().server.app.inject({ method: 'GET', url: '/api/v3/Init/Version' }));
    expect(version.Server.Version).toMatch(/^\d+(\.\d+){1,3}$/);
    expect(['Stable', 'Dev', 'Debug']).toContain(version.Server.ReleaseChannel);
    expectOptionalDateTime(version.Server.ReleaseDate, 'Server.ReleaseDate');
  });

  it('POST /api/auth with the plugin device name', async () => {
    const res = await demo().server.request({
      method: 'POST',
      url: '/api/auth',
      body: { ...CLIENT_USER, device: 'Shoko Jellyfin Plugin (Shokofin)' },
    });
    key = jsonOf<AuthResult>(res).apikey;
    expect(key).toEqual(expect.any(String));
    // Imported from Shoko: Shoko's password logs in as above, and the client goes on with the key Shoko gave it.
    key = demo().shokoApiKey ?? key;
  });

  it('GET File/PathEndsWith?path=<escaped /folder/file>&includeDataFrom=AniDB&limit=1 finds that file', async () => {
    const files = jsonOf<SentFile[]>(
      await get(`/api/v3/File/PathEndsWith?path=${escapeDataString(`/${EPISODE_1}`)}&includeDataFrom=AniDB&limit=1`),
    );
    expect(files).toHaveLength(1);
    expectShokofinFile(files[0]!);
    expect(files[0]!.ID).toBe(demo().fileByPath.get(EPISODE_1));
    expect(files[0]!.Locations[0]!.ImportFolderID).toBe(demo().importFolderId);
    expect(files[0]!.AniDB?.ReleaseGroup.Name).toBe('Lantern Subs');
  });

  it('GET File/PathEndsWith with a Windows path (backslashes, escaped as %5C) finds the same file', async () => {
    const windowsPath = `\\${EPISODE_1.replace(/\//g, '\\')}`;
    const files = jsonOf<SentFile[]>(
      await get(`/api/v3/File/PathEndsWith?path=${escapeDataString(windowsPath)}&includeDataFrom=AniDB&limit=1`),
    );
    expect(files.map((f) => f.ID)).toEqual([demo().fileByPath.get(EPISODE_1)]);
  });

  it('GET File/PathEndsWith for the second location of a file answers that file', async () => {
    const files = jsonOf<SentFile[]>(
      await get(`/api/v3/File/PathEndsWith?path=${escapeDataString('/Backup/Kiri 02 (copy).mkv')}&includeDataFrom=AniDB&limit=1`),
    );
    expect(files.map((f) => f.ID)).toEqual([
      demo().fileByPath.get('Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - 02 [1080p].mkv'),
    ]);
  });

  it('GET ImportFolder/{id}', async () => {
    const folder = jsonOf<ImportFolder>(await get(`/api/v3/ImportFolder/${demo().importFolderId}`));
    expectInt(folder.ID, 'ImportFolder.ID');
    expect(folder.Name).toBe('Demo Library');
  });

  it('GET ImportFolder/{id}/File?pageSize=1000&page=1&include=XRefs&folderPath=<escaped sub path>', async () => {
    const list = jsonOf<ListResult<XRefFile>>(
      await get(
        `/api/v3/ImportFolder/${demo().importFolderId}/File?pageSize=1000&page=1&include=XRefs&folderPath=${escapeDataString('Kiri no Toudai Yuubinkyoku')}`,
      ),
    );
    expectInt(list.Total, 'ListResult.Total');
    for (const file of list.List) expectShokofinFile(file);
    const pathsOf = (file: XRefFile): string[] => file.Locations.map((l) => l.RelativePath.replace(/\\/g, '/').replace(/^\//, ''));
    expect(list.List.flatMap(pathsOf)).toEqual(expect.arrayContaining([EPISODE_1]));
    // Every file listed lies in the folder (a file may have another location elsewhere too).
    for (const file of list.List)
      expect(
        pathsOf(file).some((p) => p.startsWith('Kiri no Toudai Yuubinkyoku/')),
        pathsOf(file).join(),
      ).toBe(true);
    expect(list.Total).toBe(5);
  });

  it('GET File/{id}?include=XRefs&includeDataFrom=AniDB', async () => {
    const file = jsonOf<XRefFile>(await get(`/api/v3/File/${demo().fileByPath.get(EPISODE_1)}?include=XRefs&includeDataFrom=AniDB`));
    expectShokofinFile(file);
    expect(file.SeriesIDs).toEqual([expect.objectContaining({ SeriesID: expect.objectContaining({ ID: series(), AniDB: KIRI }) })]);
  });

  it('GET Series/{id}?includeDataFrom=AniDB', async () => {
    const s = jsonOf<Series>(await get(`/api/v3/Series/${series()}?includeDataFrom=AniDB`));
    expectShokofinSeries(s);
    expect(s.AniDB).toEqual(expect.objectContaining({ ID: KIRI, Type: 'TV', Title: 'Kiri no Toudai Yuubinkyoku', EpisodeCount: 3 }));
  });

  it('GET Series/AniDB/{animeId}/Series?includeDataFrom=AniDB (series by AniDB id)', async () => {
    const s = jsonOf<Series>(await get(`/api/v3/Series/AniDB/${KIRI}/Series?includeDataFrom=AniDB`));
    expectShokofinSeries(s);
    expect(s.IDs.ID).toBe(series());
  });

  it('GET Series/{id}/Episode?pageSize=0&includeHidden=true&includeMissing=true&includeUnaired=true&includeDataFrom=AniDB&includeXRefs=true', async () => {
    const list = jsonOf<ListResult<Episode>>(
      await get(
        `/api/v3/Series/${series()}/Episode?pageSize=0&includeHidden=true&includeMissing=true&includeUnaired=true&includeDataFrom=AniDB&includeXRefs=true`,
      ),
    );
    expect(list.List.length).toBe(list.Total);
    for (const episode of list.List) expectShokofinEpisode(episode);
    const regular = list.List.filter((e) => e.AniDB?.Type === 'Episode' || e.AniDB?.Type === 'Normal');
    expect(regular.map((e) => e.AniDB?.EpisodeNumber)).toEqual([1, 2, 3]);
    expect(list.List.some((e) => e.AniDB?.Type === 'Special')).toBe(true);
  });

  it('GET Series/{id}/File?pageSize=0&include=XRefs&includeDataFrom=AniDB', async () => {
    const list = jsonOf<ListResult<XRefFile>>(await get(`/api/v3/Series/${series()}/File?pageSize=0&include=XRefs&includeDataFrom=AniDB`));
    for (const file of list.List) expectShokofinFile(file);
    // Episodes 1 (two releases), 2 (one file in two places), 3 and S1.
    expect(list.List).toHaveLength(5);
  });

  it('GET Series/{id}/Group, then Group/{id}', async () => {
    const group = jsonOf<Group>(await get(`/api/v3/Series/${series()}/Group`));
    expectShokofinGroup(group);
    expect(group.Size).toBe(2);
    expect(group.IDs.MainSeries).toBe(series());
    const again = jsonOf<Group>(await get(`/api/v3/Group/${group.IDs.ID}`));
    expectShokofinGroup(again);
    expect(again.IDs.ID).toBe(group.IDs.ID);
  });

  it('GET Filter/0/Group/{id}/Series?recursive=False&includeMissing=true&includeIgnored=false&includeDataFrom=AniDB', async () => {
    const group = jsonOf<Group>(await get(`/api/v3/Series/${series()}/Group`));
    const members = jsonOf<Series[]>(
      await get(
        `/api/v3/Filter/0/Group/${group.IDs.ID}/Series?recursive=False&includeMissing=true&includeIgnored=false&includeDataFrom=AniDB`,
      ),
    );
    for (const member of members) expectShokofinSeries(member);
    expect(members.map((m) => m.IDs.AniDB).sort()).toEqual([9001, 9002]);
  });

  it('GET Group/{id}/Group?includeEmpty=true', async () => {
    const group = jsonOf<Group>(await get(`/api/v3/Series/${series()}/Group`));
    expect(jsonOf(await get(`/api/v3/Group/${group.IDs.ID}/Group?includeEmpty=true`))).toEqual([]);
  });

  /** The first episode's id, as the plugin has it from the file's cross-references. */
  const firstEpisodeId = async () =>
    jsonOf<XRefFile>(await get(`/api/v3/File/${demo().fileByPath.get(EPISODE_1)}?include=XRefs&includeDataFrom=AniDB`)).SeriesIDs[0]!
      .EpisodeIDs[0]!.ID;

  it('per episode: GET Episode/{id}?includeDataFrom=AniDB&includeXRefs=true', async () => {
    const episode = jsonOf<Episode>(await get(`/api/v3/Episode/${await firstEpisodeId()}?includeDataFrom=AniDB&includeXRefs=true`));
    expectShokofinEpisode(episode);
    expect(episode.AniDB?.EpisodeNumber).toBe(1);
    expect(episode.IDs.ParentSeries).toBe(series());
  });

  it('per episode: includeXRefs=true adds the CrossReferences of its files', async () => {
    const episode = jsonOf<Episode>(await get(`/api/v3/Episode/${await firstEpisodeId()}?includeDataFrom=AniDB&includeXRefs=true`));
    expect(episode.CrossReferences, 'CrossReferences').toEqual(expect.any(Array));
    // Two releases of episode 1.
    expect(episode.CrossReferences).toHaveLength(2);
    for (const xref of episode.CrossReferences ?? []) {
      expectInt(xref.AniDB, 'CrossReferences[].AniDB');
      expect(typeof xref.ED2K).toBe('string');
      expectInt(xref.FileSize, 'CrossReferences[].FileSize');
    }
  });

  it('per episode: GET Episode/{id}/Series?includeDataFrom=AniDB', async () => {
    const parent = jsonOf<Series>(await get(`/api/v3/Episode/${await firstEpisodeId()}/Series?includeDataFrom=AniDB`));
    expectShokofinSeries(parent);
    expect(parent.IDs.ID).toBe(series());
  });

  it('per episode: GET Episode/{id}/Images', async () => {
    const images = jsonOf<Images>(await get(`/api/v3/Episode/${await firstEpisodeId()}/Images`));
    for (const kind of ['Posters', 'Backdrops', 'Banners', 'Logos'] as const) expect(Array.isArray(images[kind]), kind).toBe(true);
  });

  it('series extras: GET Series/{id}/Images, then the poster it names from Image/{Source}/{Type}/{ID}', async () => {
    const images = jsonOf<Images>(await get(`/api/v3/Series/${series()}/Images`));
    for (const kind of ['Posters', 'Backdrops', 'Banners', 'Logos'] as const) expect(Array.isArray(images[kind]), kind).toBe(true);
    expect(images.Posters.length).toBeGreaterThan(0);
    const poster = images.Posters[0]!;
    expect(['AniDB', 'TMDB', 'Shoko']).toContain(poster.Source);
    expect(['Poster', 'Primary']).toContain(poster.Type);
    expect(isInt(poster.ID) || /^\d+$/.test(String(poster.ID))).toBe(true);
    expect(typeof poster.Preferred).toBe('boolean');
    expect(typeof poster.Disabled).toBe('boolean');
    const bytes = await call('GET', `/api/v3/Image/${poster.Source}/${poster.Type}/${poster.ID}`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toMatch(/^image\//);
  });

  it('series extras: GET Series/{id}/Tags?filter=0&excludeDescriptions=true', async () => {
    const tags = jsonOf<Tag[]>(await get(`/api/v3/Series/${series()}/Tags?filter=0&excludeDescriptions=true`));
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      expectInt(tag.ID, 'Tag.ID');
      expect(typeof tag.Name).toBe('string');
      expect(tag.Description ?? null).toBeNull();
    }
  });

  it('series extras: GET Series/{id}/Cast?includeDataFrom=AniDB', async () => {
    const cast = jsonOf<Role[]>(await get(`/api/v3/Series/${series()}/Cast?includeDataFrom=AniDB`));
    expect(cast.length).toBeGreaterThan(0);
    for (const role of cast) {
      expect(typeof role.RoleName).toBe('string');
      expect(typeof role.Staff.Name).toBe('string');
    }
  });

  it('series extras: GET Series/{id}/Relations', async () => {
    const relations = jsonOf(await get(`/api/v3/Series/${series()}/Relations`));
    expect(relations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Type: 'Sequel',
          RelatedIDs: expect.objectContaining({ AniDB: 9002, Shoko: demo().seriesByAnime.get(9002) }),
        }),
      ]),
    );
  });

  it('series extras: GET Series/{id}/TMDB/Show/CrossReferences/Episode?pageSize=0 (no TMDB link: empty, or 404 which the plugin reads as none)', async () => {
    const res = await get(`/api/v3/Series/${series()}/TMDB/Show/CrossReferences/Episode?pageSize=0`);
    expect([200, 404]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json()).toEqual(expect.objectContaining({ Total: 0, List: [] }));
  });

  it('GET Series/PathEndsWith/<escaped folder name>', async () => {
    const found = jsonOf<Series[]>(await get(`/api/v3/Series/PathEndsWith/${escapeDataString('Kiri no Toudai Yuubinkyoku')}`));
    expect(found.map((s) => s.IDs.ID)).toEqual([series()]);
    expectShokofinSeries({
      ...found[0]!,
      AniDB: found[0]!.AniDB ?? jsonOf<Series>(await get(`/api/v3/Series/${series()}?includeDataFrom=AniDB`)).AniDB,
    });
  });

  it('GET File/Hash/ED2K?hash=…&size=…&includeDataFrom=AniDB, and 404 for an unknown hash', async () => {
    const known = demo().demo.files.find((f) => f.fileName?.includes('Kiri no Toudai Yuubinkyoku - 01 [1080p]'))!;
    const file = jsonOf<SentFile>(
      await get(`/api/v3/File/Hash/ED2K?hash=${escapeDataString(known.ed2k)}&size=${known.size}&includeDataFrom=AniDB`),
    );
    expectShokofinFile(file);
    expect(file.ID).toBe(demo().fileByPath.get(EPISODE_1));
    const missing = await get(`/api/v3/File/Hash/ED2K?hash=${'0'.repeat(32)}&size=${known.size}&includeDataFrom=AniDB`);
    expect(missing.statusCode).toBe(404);
  });

  it('playback sync: GET File/{id}/UserStats, then PUT it as System.Text.Json writes the model (IsEmpty included)', async () => {
    const fileId = demo().fileByPath.get(EPISODE_1)!;
    const before = await get(`/api/v3/File/${fileId}/UserStats`);
    expect([200, 404]).toContain(before.statusCode);
    const put = await demo().server.app.inject({
      method: 'PUT',
      url: `/api/v3/File/${fileId}/UserStats`,
      headers: { apikey: key, 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({
        ResumePosition: '00:05:00',
        WatchedCount: 0,
        LastWatchedAt: null,
        LastUpdatedAt: '2026-05-01T10:00:00.1234567Z',
        IsEmpty: false,
      }),
    });
    const stats = jsonOf<FileUserStats>(put);
    expect(stats.ResumePosition).toMatch(TIME_SPAN);
    expectInt(stats.WatchedCount, 'UserStats.WatchedCount');
    expectDateTime(stats.LastUpdatedAt, 'UserStats.LastUpdatedAt');
    const after = jsonOf<FileUserStats>(await get(`/api/v3/File/${fileId}/UserStats`));
    expect(after.ResumePosition).toBe(stats.ResumePosition);
  });

  // Shoko answers the scrobble with 202 and a text message; the plugin counts only 200/204 as synced (see README).
  const scrobble = (query: string) => call('PATCH', `/api/v3/File/${demo().fileByPath.get(EPISODE_1)}/Scrobble?${query}`);

  it('playback sync: PATCH File/{id}/Scrobble?event=play|pause&episodeID=…&resumePosition=<ms>', async () => {
    const episodeId = await firstEpisodeId();
    expect([200, 202, 204]).toContain((await scrobble(`event=play&episodeID=${episodeId}&resumePosition=300000`)).statusCode);
    expect([200, 202, 204]).toContain((await scrobble(`event=pause&episodeID=${episodeId}&resumePosition=420000`)).statusCode);
    // The plugin sends milliseconds; Shoko reads the number as ticks (see README), so only the shape is checked here.
    const stats = jsonOf<FileUserStats>(await get(`/api/v3/File/${demo().fileByPath.get(EPISODE_1)}/UserStats`));
    expect(stats.ResumePosition).toMatch(TIME_SPAN);
  });

  it('playback sync: PATCH File/{id}/Scrobble?event=stop&…&watched=True marks the file watched', async () => {
    const episodeId = await firstEpisodeId();
    expect([200, 202, 204]).toContain((await scrobble(`event=stop&episodeID=${episodeId}&resumePosition=1440000&watched=True`)).statusCode);
    const after = jsonOf<FileUserStats>(await get(`/api/v3/File/${demo().fileByPath.get(EPISODE_1)}/UserStats`));
    expect(after.WatchedCount).toBeGreaterThanOrEqual(1);
    expectDateTime(after.LastWatchedAt, 'UserStats.LastWatchedAt');
  });

  it('custom tags: POST Tag/User {name, description} with lower-case keys', async () => {
    const created = await demo().server.app.inject({
      method: 'POST',
      url: '/api/v3/Tag/User',
      headers: { apikey: key, 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ name: 'shokofin/hidden', description: null }),
    });
    const tag = jsonOf<Tag>(created);
    expectInt(tag.ID, 'Tag.ID');
    expect(tag.Name).toBe('shokofin/hidden');
    const all = jsonOf<Tag[] | ListResult<Tag>>(await get('/api/v3/Tag/User?pageSize=0'));
    expect((Array.isArray(all) ? all : all.List).map((t) => t.Name)).toContain('shokofin/hidden');
  });
});
