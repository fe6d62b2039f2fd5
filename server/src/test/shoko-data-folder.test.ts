import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { md4 } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SAMPLE_FILTER_PRESETS,
  SHOKO_DEFAULT_PRESETS,
  writeShokoDataFolder,
  type ShokoDataFolderManifest,
  type ShokoDataFolderOptions,
} from '../../../fakes/src/shoko-data/index.js';
import { parseAnimeXml } from '../providers/anidb/http/anime-xml.js';

/**
 * The Shoko data folder fake (fakes/src/shoko-data) checked against what we know of Shoko's: the tables' columns per
 * schema version, the references between rows, hashes of the real files, figures derived from the watch states, and
 * AnimeDoc XML that agrees with the database. The importer's tests rely on all of it.
 */

/**
 * The columns of the tables the fake writes, as Shoko Server's own migrations leave them (key first, `?` after a
 * column that may be NULL): at schema version 138 (5.3.3), and where 122 (5.0) differs. AniDB_Anime_Character_Creator
 * and TMDB_Image_Entity do not exist yet at 122; AniDB_Character_Creator is gone by 138.
 */
const SHOKO_TABLE_COLUMNS_V138: Record<string, string> = {
  Versions: 'VersionsID VersionType VersionValue VersionRevision? VersionCommand? VersionProgram?',
  JMMUser:
    'JMMUserID Username? Password? IsAdmin IsAniDBUser IsTraktUser HideCategories? CanEditServerSettings? PlexUsers? PlexToken? AvatarImageBlob? AvatarImageMetadata?',
  AuthTokens: 'AuthID UserID DeviceName Token',
  ImportFolder: 'ImportFolderID ImportFolderType ImportFolderName ImportFolderLocation IsDropSource IsDropDestination CloudID? IsWatched',
  VideoLocal:
    'VideoLocalID Hash CRC32? MD5? SHA1? HashSource FileSize IsIgnored DateTimeUpdated FileName DateTimeCreated? MediaVersion MediaBlob? MyListID IsVariation DateTimeImported? LastAVDumped? LastAVDumpVersion?',
  VideoLocal_Place: 'VideoLocal_Place_ID VideoLocalID FilePath ImportFolderID ImportFolderType',
  VideoLocal_User: 'VideoLocal_UserID JMMUserID VideoLocalID WatchedDate? ResumePosition WatchedCount LastUpdated',
  CrossRef_File_Episode: 'CrossRef_File_EpisodeID Hash? FileName FileSize CrossRefSource AnimeID EpisodeID Percentage EpisodeOrder',
  AniDB_File:
    'AniDB_FileID FileID Hash GroupID File_Source File_Description File_ReleaseDate DateTimeUpdated FileName FileSize FileVersion? InternalVersion? IsDeprecated IsCensored? IsChaptered',
  AniDB_FileUpdate: 'AniDB_FileUpdateID FileSize Hash HasResponse UpdatedAt',
  CrossRef_Languages_AniDB_File: 'CrossRef_Languages_AniDB_FileID FileID LanguageName',
  CrossRef_Subtitles_AniDB_File: 'CrossRef_Subtitles_AniDB_FileID FileID LanguageName',
  AniDB_ReleaseGroup:
    'AniDB_ReleaseGroupID GroupID Rating Votes AnimeCount FileCount GroupName GroupNameShort IRCChannel IRCServer URL Picname',
  AniDB_Anime:
    'AniDB_AnimeID AnimeID EpisodeCount AirDate? EndDate? URL? Picname? BeginYear EndYear AnimeType MainTitle AllTitles AllTags Description EpisodeCountNormal EpisodeCountSpecial Rating VoteCount TempRating TempVoteCount AvgReviewRating ReviewCount DateTimeUpdated DateTimeDescUpdated ImageEnabled Restricted ANNID? AllCinemaID? LatestEpisodeNumber? Site_JP? Site_EN? Wikipedia_ID? WikipediaJP_ID? SyoboiID? AnisonID? CrunchyrollID? VNDBID? BangumiID? FunimationID? HiDiveID? LainID?',
  AniDB_AnimeUpdate: 'AniDB_AnimeUpdateID AnimeID UpdatedAt',
  AniDB_Anime_Title: 'AniDB_Anime_TitleID AnimeID TitleType Language Title?',
  AniDB_Episode:
    'AniDB_EpisodeID EpisodeID AnimeID LengthSeconds Rating Votes EpisodeNumber EpisodeType AirDate DateTimeUpdated Description',
  AniDB_Episode_Title: 'AniDB_Episode_TitleID AniDB_EpisodeID Language Title',
  AniDB_Tag: 'AniDB_TagID TagID GlobalSpoiler TagName TagDescription Verified ParentTagID? TagNameOverride? LastUpdated',
  AniDB_Anime_Tag: 'AniDB_Anime_TagID AnimeID TagID Weight? LocalSpoiler',
  AniDB_Anime_Relation: 'AniDB_Anime_RelationID AnimeID RelatedAnimeID RelationType',
  AniDB_Anime_Similar: 'AniDB_Anime_SimilarID AnimeID SimilarAnimeID Approval Total',
  AniDB_Character: 'AniDB_CharacterID CharacterID Name OriginalName Description ImagePath Gender Type LastUpdated',
  AniDB_Anime_Character: 'AniDB_Anime_CharacterID AnimeID CharacterID Appearance AppearanceType Ordering',
  AniDB_Creator:
    'AniDB_CreatorID CreatorID Name OriginalName? Type ImagePath? EnglishHomepageUrl? JapaneseHomepageUrl? EnglishWikiUrl? JapaneseWikiUrl? LastUpdatedAt',
  AniDB_Anime_Staff: 'AniDB_Anime_StaffID AnimeID CreatorID Role RoleType Ordering',
  AniDB_Anime_Character_Creator: 'AniDB_Anime_Character_CreatorID AnimeID CharacterID CreatorID Ordering',
  AniDB_Vote: 'AniDB_VoteID EntityID VoteValue VoteType',
  AnimeGroup:
    'AnimeGroupID AnimeGroupParentID? GroupName Description? IsManuallyNamed DateTimeUpdated DateTimeCreated MissingEpisodeCount MissingEpisodeCountGroups OverrideDescription EpisodeAddedDate? DefaultAnimeSeriesID? LatestEpisodeAirDate? MainAniDBAnimeID?',
  AnimeGroup_User:
    'AnimeGroup_UserID JMMUserID AnimeGroupID IsFave UnwatchedEpisodeCount WatchedEpisodeCount WatchedDate? PlayedCount WatchedCount StoppedCount',
  AnimeSeries:
    'AnimeSeriesID AnimeGroupID AniDB_ID DateTimeUpdated DateTimeCreated DefaultAudioLanguage? DefaultSubtitleLanguage? MissingEpisodeCount MissingEpisodeCountGroups LatestLocalEpisodeNumber EpisodeAddedDate? SeriesNameOverride? DefaultFolder? LatestEpisodeAirDate? AirsOn? UpdatedAt DisableAutoMatchFlags HiddenMissingEpisodeCount HiddenMissingEpisodeCountGroups',
  AnimeSeries_User:
    'AnimeSeries_UserID JMMUserID AnimeSeriesID UnwatchedEpisodeCount WatchedEpisodeCount WatchedDate? PlayedCount WatchedCount StoppedCount LastEpisodeUpdate? HiddenUnwatchedEpisodeCount',
  AnimeEpisode: 'AnimeEpisodeID AnimeSeriesID AniDB_EpisodeID DateTimeUpdated DateTimeCreated IsHidden EpisodeNameOverride?',
  AnimeEpisode_User: 'AnimeEpisode_UserID JMMUserID AnimeEpisodeID AnimeSeriesID WatchedDate? PlayedCount WatchedCount StoppedCount',
  CustomTag: 'CustomTagID TagName? TagDescription?',
  CrossRef_CustomTag: 'CrossRef_CustomTagID CustomTagID CrossRefID CrossRefType',
  FilterPreset: 'FilterPresetID ParentFilterPresetID? Name FilterType Locked Hidden ApplyAtSeriesLevel Expression? SortingExpression?',
  RenamerInstance: 'ID Name Type Settings?',
  IgnoreAnime: 'IgnoreAnimeID JMMUserID AnimeID IgnoreType',
  CrossRef_AniDB_TMDB_Show: 'CrossRef_AniDB_TMDB_ShowID AnidbAnimeID TmdbShowID MatchRating',
  CrossRef_AniDB_TMDB_Movie: 'CrossRef_AniDB_TMDB_MovieID AnidbAnimeID TmdbMovieID AnidbEpisodeID MatchRating',
  CrossRef_AniDB_TMDB_Episode: 'CrossRef_AniDB_TMDB_EpisodeID AnidbAnimeID AnidbEpisodeID TmdbShowID TmdbEpisodeID Ordering MatchRating',
  TMDB_Show:
    'TMDB_ShowID TmdbShowID EnglishTitle EnglishOverview OriginalTitle OriginalLanguageCode IsRestricted Genres ContentRatings EpisodeCount SeasonCount AlternateOrderingCount UserRating UserVotes FirstAiredAt? LastAiredAt? CreatedAt LastUpdatedAt TvdbShowID? PosterPath? BackdropPath? PreferredAlternateOrderingID? Keywords? ProductionCountries? HiddenEpisodeCount',
  TMDB_Season:
    'TMDB_SeasonID TmdbShowID TmdbSeasonID EnglishTitle EnglishOverview EpisodeCount SeasonNumber CreatedAt LastUpdatedAt HiddenEpisodeCount PosterPath?',
  TMDB_Episode:
    'TMDB_EpisodeID TmdbShowID TmdbSeasonID TmdbEpisodeID EnglishTitle EnglishOverview SeasonNumber EpisodeNumber Runtime? UserRating UserVotes AiredAt? CreatedAt LastUpdatedAt TvdbEpisodeID? IsHidden ThumbnailPath?',
  TMDB_Movie:
    'TMDB_MovieID TmdbMovieID TmdbCollectionID? EnglishTitle EnglishOverview OriginalTitle OriginalLanguageCode IsRestricted IsVideo Genres ContentRatings Runtime? UserRating UserVotes ReleasedAt? CreatedAt LastUpdatedAt ImdbMovieID? PosterPath? BackdropPath? Keywords? ProductionCountries?',
  TMDB_Image: 'TMDB_ImageID IsEnabled Width Height Language RemoteFileName UserRating UserVotes',
  TMDB_Image_Entity: 'TMDB_Image_EntityID TmdbEntityID? TmdbEntityType ImageType RemoteFileName Ordering ReleasedAt?',
};

const SHOKO_TABLE_COLUMNS_V122: Record<string, string> = {
  AniDB_Character: 'AniDB_CharacterID CharID CharName PicName CharKanjiName CharDescription',
  AniDB_Anime_Character: 'AniDB_Anime_CharacterID AnimeID CharID CharType',
  AniDB_Anime_Staff: 'AniDB_Anime_StaffID AnimeID CreatorID CreatorType',
  CrossRef_AniDB_TMDB_Show: 'CrossRef_AniDB_TMDB_ShowID AnidbAnimeID TmdbShowID Source',
  CrossRef_AniDB_TMDB_Movie: 'CrossRef_AniDB_TMDB_MovieID AnidbAnimeID TmdbMovieID Source AnidbEpisodeID',
  TMDB_Show:
    'TMDB_ShowID TmdbShowID EnglishTitle EnglishOverview OriginalTitle OriginalLanguageCode IsRestricted Genres ContentRatings EpisodeCount SeasonCount AlternateOrderingCount UserRating UserVotes FirstAiredAt? LastAiredAt? CreatedAt LastUpdatedAt TvdbShowID? PosterPath? BackdropPath? PreferredAlternateOrderingID?',
  TMDB_Season: 'TMDB_SeasonID TmdbShowID TmdbSeasonID EnglishTitle EnglishOverview EpisodeCount SeasonNumber CreatedAt LastUpdatedAt',
  TMDB_Episode:
    'TMDB_EpisodeID TmdbShowID TmdbSeasonID TmdbEpisodeID EnglishTitle EnglishOverview SeasonNumber EpisodeNumber Runtime? UserRating UserVotes AiredAt? CreatedAt LastUpdatedAt TvdbEpisodeID?',
  TMDB_Movie:
    'TMDB_MovieID TmdbMovieID TmdbCollectionID? EnglishTitle EnglishOverview OriginalTitle OriginalLanguageCode IsRestricted IsVideo Genres ContentRatings Runtime? UserRating UserVotes ReleasedAt? CreatedAt LastUpdatedAt ImdbMovieID? PosterPath? BackdropPath?',
  TMDB_Image:
    'TMDB_ImageID TmdbMovieID? TmdbEpisodeID? TmdbSeasonID? TmdbShowID? TmdbCollectionID? TmdbNetworkID? TmdbCompanyID? TmdbPersonID? ForeignType ImageType IsEnabled Width Height Language RemoteFileName UserRating UserVotes',
  AniDB_Character_Creator: 'AniDB_Character_CreatorID CharacterID CreatorID',
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-data-folder-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let folderCount = 0;
async function writeFolder(options: Omit<ShokoDataFolderOptions, 'mediaRoot'>) {
  const base = path.join(root, String(++folderCount));
  const manifest = await writeShokoDataFolder(path.join(base, 'data'), { ...options, mediaRoot: path.join(base, 'media') });
  const db = new Database(manifest.databasePath, { readonly: true, fileMustExist: true });
  return { manifest, db };
}

type Db = Database.Database;
const all = <T = Record<string, unknown>>(db: Db, sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
const count = (db: Db, sql: string, ...params: unknown[]) =>
  (db
    .prepare(sql)
    .pluck()
    .get(...params) as number) ?? 0;

/** table_info as the column lists are written: key first, `?` after a column that may be NULL. */
const columnsOf = (db: Db, table: string) =>
  (db.pragma(`table_info("${table}")`) as Array<{ name: string; notnull: number; pk: number }>)
    .map((column) => column.name + (column.pk || column.notnull ? '' : '?'))
    .join(' ');

/** child table, column → parent table, column: every non-NULL child value must exist in the parent. */
const REFERENCES: Array<[string, string, string, string]> = [
  ['AuthTokens', 'UserID', 'JMMUser', 'JMMUserID'],
  ['VideoLocal_Place', 'VideoLocalID', 'VideoLocal', 'VideoLocalID'],
  ['VideoLocal_Place', 'ImportFolderID', 'ImportFolder', 'ImportFolderID'],
  ['VideoLocal_User', 'VideoLocalID', 'VideoLocal', 'VideoLocalID'],
  ['VideoLocal_User', 'JMMUserID', 'JMMUser', 'JMMUserID'],
  ['CrossRef_File_Episode', 'EpisodeID', 'AniDB_Episode', 'EpisodeID'],
  ['CrossRef_File_Episode', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['CrossRef_Languages_AniDB_File', 'FileID', 'AniDB_File', 'FileID'],
  ['CrossRef_Subtitles_AniDB_File', 'FileID', 'AniDB_File', 'FileID'],
  ['AniDB_File', 'GroupID', 'AniDB_ReleaseGroup', 'GroupID'],
  ['AniDB_AnimeUpdate', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Anime_Title', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Episode', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Episode_Title', 'AniDB_EpisodeID', 'AniDB_Episode', 'EpisodeID'],
  ['AniDB_Anime_Tag', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Anime_Tag', 'TagID', 'AniDB_Tag', 'TagID'],
  ['AniDB_Tag', 'ParentTagID', 'AniDB_Tag', 'TagID'],
  ['AniDB_Anime_Relation', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Anime_Similar', 'AnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AniDB_Anime_Staff', 'CreatorID', 'AniDB_Creator', 'CreatorID'],
  ['AnimeSeries', 'AniDB_ID', 'AniDB_Anime', 'AnimeID'],
  ['AnimeSeries', 'AnimeGroupID', 'AnimeGroup', 'AnimeGroupID'],
  ['AnimeGroup', 'AnimeGroupParentID', 'AnimeGroup', 'AnimeGroupID'],
  ['AnimeGroup', 'DefaultAnimeSeriesID', 'AnimeSeries', 'AnimeSeriesID'],
  ['AnimeGroup', 'MainAniDBAnimeID', 'AniDB_Anime', 'AnimeID'],
  ['AnimeEpisode', 'AnimeSeriesID', 'AnimeSeries', 'AnimeSeriesID'],
  ['AnimeEpisode', 'AniDB_EpisodeID', 'AniDB_Episode', 'EpisodeID'],
  ['AnimeEpisode_User', 'AnimeEpisodeID', 'AnimeEpisode', 'AnimeEpisodeID'],
  ['AnimeEpisode_User', 'AnimeSeriesID', 'AnimeSeries', 'AnimeSeriesID'],
  ['AnimeEpisode_User', 'JMMUserID', 'JMMUser', 'JMMUserID'],
  ['AnimeSeries_User', 'AnimeSeriesID', 'AnimeSeries', 'AnimeSeriesID'],
  ['AnimeGroup_User', 'AnimeGroupID', 'AnimeGroup', 'AnimeGroupID'],
  ['CrossRef_CustomTag', 'CustomTagID', 'CustomTag', 'CustomTagID'],
  ['FilterPreset', 'ParentFilterPresetID', 'FilterPreset', 'FilterPresetID'],
  ['IgnoreAnime', 'JMMUserID', 'JMMUser', 'JMMUserID'],
  ['CrossRef_AniDB_TMDB_Show', 'AnidbAnimeID', 'AniDB_Anime', 'AnimeID'],
  ['CrossRef_AniDB_TMDB_Show', 'TmdbShowID', 'TMDB_Show', 'TmdbShowID'],
  ['CrossRef_AniDB_TMDB_Episode', 'AnidbEpisodeID', 'AniDB_Episode', 'EpisodeID'],
  ['CrossRef_AniDB_TMDB_Episode', 'TmdbEpisodeID', 'TMDB_Episode', 'TmdbEpisodeID'],
  ['CrossRef_AniDB_TMDB_Movie', 'AnidbEpisodeID', 'AniDB_Episode', 'EpisodeID'],
  ['CrossRef_AniDB_TMDB_Movie', 'TmdbMovieID', 'TMDB_Movie', 'TmdbMovieID'],
  ['TMDB_Season', 'TmdbShowID', 'TMDB_Show', 'TmdbShowID'],
  ['TMDB_Episode', 'TmdbSeasonID', 'TMDB_Season', 'TmdbSeasonID'],
];
const MODERN_REFERENCES: Array<[string, string, string, string]> = [
  ['AniDB_Anime_Character', 'CharacterID', 'AniDB_Character', 'CharacterID'],
  ['AniDB_Anime_Character_Creator', 'CreatorID', 'AniDB_Creator', 'CreatorID'],
  ['AniDB_Anime_Character_Creator', 'CharacterID', 'AniDB_Character', 'CharacterID'],
];
const V5_0_REFERENCES: Array<[string, string, string, string]> = [
  ['AniDB_Anime_Character', 'CharID', 'AniDB_Character', 'CharID'],
  ['AniDB_Character_Creator', 'CreatorID', 'AniDB_Creator', 'CreatorID'],
];

function expectConsistent(db: Db, manifest: ShokoDataFolderManifest): void {
  const references = [...REFERENCES, ...(manifest.schemaShape === 'v5.0' ? V5_0_REFERENCES : MODERN_REFERENCES)];
  for (const [child, column, parent, parentColumn] of references) {
    const orphans = count(
      db,
      `SELECT count(*) FROM "${child}" c WHERE c."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${parent}" p WHERE p."${parentColumn}" = c."${column}")`,
    );
    expect(orphans, `${child}.${column} → ${parent}.${parentColumn}`).toBe(0);
  }
  // Files are known by (ED2K, size): the links and AniDB's records must name a file Shoko has.
  for (const table of ['CrossRef_File_Episode', 'AniDB_File', 'AniDB_FileUpdate']) {
    const orphans = count(
      db,
      `SELECT count(*) FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM VideoLocal v WHERE v.Hash = t.Hash AND v.FileSize = t.FileSize)`,
    );
    expect(orphans, `${table} without its VideoLocal`).toBe(0);
  }
  expect(
    count(
      db,
      'SELECT count(*) FROM VideoLocal v WHERE NOT EXISTS (SELECT 1 FROM VideoLocal_Place p WHERE p.VideoLocalID = v.VideoLocalID)',
    ),
  ).toBe(0);

  const tables = all<{ name: string }>(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'sqlite_sequence'").map(
    (t) => t.name,
  );
  expect(new Set(tables)).toEqual(new Set(Object.keys(manifest.rowCounts)));
  for (const table of tables) expect(count(db, `SELECT count(*) FROM "${table}"`), table).toBe(manifest.rowCounts[table]);
  expect(count(db, "SELECT max(CAST(VersionValue AS int)) FROM Versions WHERE VersionType = 'Database'")).toBe(manifest.schemaVersion);
  expect(db.pragma('encoding', { simple: true })).toMatch(/^UTF-16/);
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
}

/** Series and group figures recomputed from the file and episode records, the way Shoko derives them. */
function expectFiguresFromWatchStates(db: Db): void {
  const counted = all<{ id: number; series: number; hidden: number; anidb: number }>(
    db,
    `SELECT ae.AnimeEpisodeID id, ae.AnimeSeriesID series, ae.IsHidden hidden, ae.AniDB_EpisodeID anidb FROM AnimeEpisode ae
     JOIN AniDB_Episode e ON e.EpisodeID = ae.AniDB_EpisodeID WHERE e.EpisodeType IN (1, 3) AND EXISTS (
       SELECT 1 FROM CrossRef_File_Episode x JOIN VideoLocal v ON v.Hash = x.Hash AND v.FileSize = x.FileSize WHERE x.EpisodeID = ae.AniDB_EpisodeID)`,
  );
  const watched = new Set([
    ...all<{ key: string }>(
      db,
      `SELECT vu.JMMUserID || ':' || x.EpisodeID key FROM VideoLocal_User vu JOIN VideoLocal v ON v.VideoLocalID = vu.VideoLocalID
       JOIN CrossRef_File_Episode x ON x.Hash = v.Hash AND x.FileSize = v.FileSize WHERE vu.WatchedDate IS NOT NULL`,
    ).map((row) => row.key),
    ...all<{ key: string }>(
      db,
      `SELECT eu.JMMUserID || ':' || ae.AniDB_EpisodeID key FROM AnimeEpisode_User eu JOIN AnimeEpisode ae ON ae.AnimeEpisodeID = eu.AnimeEpisodeID
       WHERE eu.WatchedDate IS NOT NULL`,
    ).map((row) => row.key),
  ]);
  const seriesRows = all<{ user: number; series: number; unwatched: number; watched: number; hidden: number }>(
    db,
    'SELECT JMMUserID user, AnimeSeriesID series, UnwatchedEpisodeCount unwatched, WatchedEpisodeCount watched, HiddenUnwatchedEpisodeCount hidden FROM AnimeSeries_User',
  );
  const users = all<{ id: number }>(db, 'SELECT JMMUserID id FROM JMMUser');
  expect(seriesRows).toHaveLength(users.length * count(db, 'SELECT count(*) FROM AnimeSeries'));
  for (const row of seriesRows) {
    const episodes = counted.filter((episode) => episode.series === row.series);
    const seen = episodes.filter((episode) => watched.has(`${row.user}:${episode.anidb}`));
    const unseen = episodes.filter((episode) => !watched.has(`${row.user}:${episode.anidb}`));
    expect(row, `series ${row.series}, user ${row.user}`).toEqual({
      ...row,
      watched: seen.length,
      unwatched: unseen.filter((episode) => !episode.hidden).length,
      hidden: unseen.filter((episode) => episode.hidden).length,
    });
  }
  const groups = all<{ id: number; parent: number | null }>(db, 'SELECT AnimeGroupID id, AnimeGroupParentID parent FROM AnimeGroup');
  const seriesGroups = all<{ id: number; group: number }>(db, 'SELECT AnimeSeriesID id, AnimeGroupID "group" FROM AnimeSeries');
  const allSeriesOf = (group: number): number[] => [
    ...seriesGroups.filter((series) => series.group === group).map((series) => series.id),
    ...groups.filter((child) => child.parent === group).flatMap((child) => allSeriesOf(child.id)),
  ];
  for (const row of all<{ user: number; group: number; unwatched: number; watched: number }>(
    db,
    'SELECT JMMUserID user, AnimeGroupID "group", UnwatchedEpisodeCount unwatched, WatchedEpisodeCount watched FROM AnimeGroup_User',
  )) {
    const members = new Set(allSeriesOf(row.group));
    const mine = seriesRows.filter((series) => series.user === row.user && members.has(series.series));
    expect(row).toEqual({
      ...row,
      unwatched: mine.reduce((sum, one) => sum + one.unwatched, 0),
      watched: mine.reduce((sum, one) => sum + one.watched, 0),
    });
  }
}

describe('the small data folder at schema version 138', () => {
  let manifest: ShokoDataFolderManifest;
  let db: Db;
  let seconds = 0;
  beforeAll(async () => {
    const started = performance.now();
    ({ manifest, db } = await writeFolder({ size: 'small' }));
    seconds = (performance.now() - started) / 1000;
  });
  afterAll(() => db?.close());

  it('is written in a moment (well under a second on an idle machine)', () => expect(seconds).toBeLessThan(5));

  it("has Shoko 5.3.3's columns in every table it writes", () => {
    for (const [table, columns] of Object.entries(SHOKO_TABLE_COLUMNS_V138)) expect(columnsOf(db, table), table).toBe(columns);
  });

  it('keeps every reference, count and the schema version consistent', () => expectConsistent(db, manifest));

  it('derives the series and group figures from the watch states', () => expectFiguresFromWatchStates(db));

  it('stores the real hashes of the files it wrote, and leaves the missing one out', async () => {
    const folders = new Map(manifest.importFolders.map((folder) => [folder.id, folder.localPath]));
    for (const file of manifest.files) {
      const row = db.prepare('SELECT Hash, CRC32, MD5, SHA1, FileSize FROM VideoLocal WHERE VideoLocalID = ?').get(file.id);
      expect(row).toEqual({ Hash: file.ed2k, CRC32: file.crc32, MD5: file.md5, SHA1: file.sha1, FileSize: file.size });
      for (const location of file.locations) {
        const local = path.join(folders.get(location.importFolderId)!, location.relativePath);
        expect(fs.existsSync(local), local).toBe(location.exists);
        if (!location.exists) continue;
        const data = fs.readFileSync(local);
        expect({
          Hash: (await md4(data)).toUpperCase(),
          CRC32: zlib.crc32(data).toString(16).padStart(8, '0').toUpperCase(),
          MD5: createHash('md5').update(data).digest('hex').toUpperCase(),
          SHA1: createHash('sha1').update(data).digest('hex').toUpperCase(),
          FileSize: data.length,
        }).toEqual(row);
      }
    }
  });

  it('has every case the importer must handle', () => {
    const users = new Map(manifest.users.map((user) => [user.name, user]));
    const password = (name: string) => db.prepare('SELECT Password FROM JMMUser WHERE Username = ?').pluck().get(name);
    expect(password('admin')).toBe(createHash('sha512').update(users.get('admin')!.password).digest('hex').toUpperCase());
    expect(password('guest')).toBe('');
    expect(db.prepare("SELECT HideCategories, PlexUsers FROM JMMUser WHERE Username = 'kid'").get()).toEqual({
      HideCategories: 'horror,gore',
      PlexUsers: 'KidsRoom,Living Room TV',
    });
    const avatar = db.prepare("SELECT AvatarImageBlob b, AvatarImageMetadata m FROM JMMUser WHERE Username = 'guest'").get() as {
      b: Buffer;
      m: string;
    };
    expect(avatar.b.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(JSON.parse(avatar.m)).toEqual({ ContentType: 'image/png', Width: 16, Height: 16 });
    for (const user of manifest.users) expect(user.apiKeys.length).toBeGreaterThanOrEqual(2);
    expect(count(db, 'SELECT count(*) FROM ImportFolder WHERE IsDropSource = 1 AND IsWatched = 0')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM ImportFolder WHERE IsDropDestination = 1 AND IsWatched = 1')).toBe(1);

    const files = manifest.files;
    expect(files.filter((file) => file.episodeLinks.length === 0 && !file.ignored)).toHaveLength(1);
    expect(files.filter((file) => file.ignored)).toHaveLength(1);
    expect(files.filter((file) => file.variation)).toHaveLength(1);
    expect(files.filter((file) => file.locations.length === 2)).toHaveLength(1);
    expect(files.filter((file) => file.locations.some((location) => !location.exists))).toHaveLength(1);
    expect(
      count(
        db,
        'SELECT count(*) FROM CrossRef_File_Episode x WHERE CrossRefSource = 2 AND NOT EXISTS (SELECT 1 FROM AniDB_File f WHERE f.Hash = x.Hash)',
      ),
    ).toBe(1);
    expect(all(db, 'SELECT EpisodeOrder, Percentage FROM CrossRef_File_Episode GROUP BY Hash HAVING count(*) = 2')).toHaveLength(1);
    expect(count(db, 'SELECT count(*) FROM VideoLocal_User WHERE ResumePosition > 0 AND WatchedDate IS NULL')).toBeGreaterThanOrEqual(1);
    expect(
      count(
        db,
        'SELECT count(*) FROM (SELECT VideoLocalID FROM VideoLocal_User WHERE WatchedDate IS NOT NULL GROUP BY VideoLocalID HAVING count(DISTINCT WatchedDate) = 2)',
      ),
    ).toBe(1);
    expect(manifest.fileStates.find((state) => state.watchedAt)?.watchedAt).toBe(
      new Date(manifest.fileStates.find((state) => state.watchedAt)!.watchedDate!.replace(' ', 'T')).toISOString(),
    );

    expect(count(db, 'SELECT count(*) FROM AnimeGroup WHERE IsManuallyNamed = 1')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM AnimeGroup WHERE AnimeGroupParentID IS NOT NULL')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM AnimeGroup WHERE DefaultAnimeSeriesID IS NOT NULL')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM (SELECT AnimeGroupID FROM AnimeSeries GROUP BY AnimeGroupID HAVING count(*) = 2)')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM AnimeEpisode WHERE IsHidden = 1')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM AnimeEpisode WHERE EpisodeNameOverride IS NOT NULL')).toBe(1);
    expect(count(db, 'SELECT count(*) FROM AnimeSeries WHERE SeriesNameOverride IS NOT NULL')).toBe(1);
    expect(all(db, 'SELECT DISTINCT AnimeType FROM AniDB_Anime ORDER BY 1').map((row) => row.AnimeType)).toEqual([0, 1, 2, 3, 4]);
    expect(all(db, 'SELECT DISTINCT TitleType FROM AniDB_Anime_Title ORDER BY 1').map((row) => row.TitleType)).toEqual([
      'main',
      'official',
      'short',
      'synonym',
    ]);
    expect(all(db, 'SELECT DISTINCT VoteType FROM AniDB_Vote ORDER BY 1').map((row) => row.VoteType)).toEqual([1, 2, 4]);
    for (const table of [
      'AniDB_Anime_Relation',
      'AniDB_Anime_Similar',
      'AniDB_Anime_Character_Creator',
      'AniDB_Anime_Staff',
      'IgnoreAnime',
      'CrossRef_AniDB_TMDB_Episode',
    ]) {
      expect(count(db, `SELECT count(*) FROM ${table}`), table).toBeGreaterThan(0);
    }
    expect(count(db, 'SELECT count(*) FROM AniDB_Tag WHERE ParentTagID IS NOT NULL')).toBeGreaterThan(0);
    expect(manifest.customTags.filter((tag) => !tag.starter && tag.animeIds.length)).toHaveLength(2);
    expect(manifest.customTags.filter((tag) => tag.starter && tag.animeIds.length)).toHaveLength(1);
    expect(manifest.filterPresets).toHaveLength(SAMPLE_FILTER_PRESETS.length + SHOKO_DEFAULT_PRESETS.length);
    expect(manifest.filterPresets.filter((preset) => preset.unsupported)).toHaveLength(1);
    expect(manifest.renamers.map((renamer) => renamer.supported)).toEqual([true, false]);
    expect(manifest.tmdb.shows[0].episodeLinks.length).toBeGreaterThan(0);
    expect(manifest.tmdb.movies).toHaveLength(1);

    const recent = all<{ UpdatedAt: string }>(
      db,
      'SELECT UpdatedAt FROM AniDB_AnimeUpdate UNION ALL SELECT UpdatedAt FROM AniDB_FileUpdate',
    );
    for (const { UpdatedAt } of recent) {
      expect(UpdatedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{7}$/);
      expect(Date.now() - new Date(UpdatedAt.replace(' ', 'T')).getTime()).toBeLessThan(30 * 86_400_000);
    }
    expect(db.prepare('SELECT DateTimeCreated FROM VideoLocal').pluck().get()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('caches AnimeDoc XML that tells what the database tells, for all anime but one', () => {
    const withoutXml = manifest.anime.filter((anime) => !anime.animeDocXml);
    expect(withoutXml).toHaveLength(1);
    for (const anime of manifest.anime) {
      const file = path.join(manifest.dir, 'Anime_HTTP', `AnimeDoc_${anime.id}.xml`);
      expect(fs.existsSync(file)).toBe(anime.animeDocXml);
      if (!anime.animeDocXml) continue;
      const parsed = parseAnimeXml(fs.readFileSync(file, 'utf8'));
      const row = db
        .prepare('SELECT MainTitle, EpisodeCount, EpisodeCountSpecial, Picname FROM AniDB_Anime WHERE AnimeID = ?')
        .get(anime.id);
      expect(row).toEqual({
        MainTitle: parsed.mainTitle,
        EpisodeCount: parsed.episodeCount,
        EpisodeCountSpecial: parsed.specialCount,
        Picname: parsed.picture,
      });
      const ids = (sql: string) =>
        all<{ id: number }>(db, sql, anime.id)
          .map((one) => one.id)
          .sort();
      expect(parsed.episodes.map((episode) => episode.id).sort()).toEqual(ids('SELECT EpisodeID id FROM AniDB_Episode WHERE AnimeID = ?'));
      expect(parsed.tags.map((tag) => tag.id).sort()).toEqual(ids('SELECT TagID id FROM AniDB_Anime_Tag WHERE AnimeID = ?'));
      expect(parsed.characters.map((character) => character.id).sort()).toEqual(
        ids('SELECT CharacterID id FROM AniDB_Anime_Character WHERE AnimeID = ?'),
      );
      expect(parsed.relatedAnime.map((related) => related.id).sort()).toEqual(
        ids('SELECT RelatedAnimeID id FROM AniDB_Anime_Relation WHERE AnimeID = ?'),
      );
      expect(parsed.titles).toHaveLength(count(db, 'SELECT count(*) FROM AniDB_Anime_Title WHERE AnimeID = ?', anime.id));
    }
  });

  it('writes the cached images and the settings file', () => {
    expect(manifest.images.some((image) => image.startsWith('images/AniDB/17/'))).toBe(true);
    expect(manifest.images.some((image) => image.startsWith('images/TMDB/'))).toBe(true);
    for (const image of manifest.images) {
      const bytes = fs.readFileSync(path.join(manifest.dir, image));
      expect(bytes.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])) || bytes.subarray(1, 4).toString() === 'PNG', image).toBe(true);
    }
    const settings = JSON.parse(fs.readFileSync(manifest.settingsPath, 'utf8'));
    expect(settings.AniDb).toMatchObject({ Username: manifest.settings.aniDbUsername, Password: manifest.settings.aniDbPassword });
    expect(settings.TMDB.UserApiKey).toBe(manifest.settings.tmdbApiKey);
    expect(settings.Language.SeriesTitleLanguageOrder).toEqual(manifest.settings.seriesTitleLanguageOrder);
    expect(settings).toMatchObject({ Plex: { Libraries: [1, 4] }, TraktTv: { Enabled: true, SyncFrequency: 'Daily' } });
  });
});

describe('a Shoko 5.0 folder (schema version 125) from a Windows machine, still running', () => {
  let manifest: ShokoDataFolderManifest;
  let db: Db;
  beforeAll(
    async () =>
      ({ manifest, db } = await writeFolder({ size: 'small', schemaVersion: 125, shokoMediaRoot: 'D:\\Anime\\', leaveWal: true })),
  );
  afterAll(() => db?.close());

  it("has Shoko 5.0's columns where they differ, and no table that came later", () => {
    for (const [table, columns] of Object.entries(SHOKO_TABLE_COLUMNS_V138)) {
      const expected = table in SHOKO_TABLE_COLUMNS_V122 ? SHOKO_TABLE_COLUMNS_V122[table] : columns;
      expect(columnsOf(db, table), table).toBe(['AniDB_Anime_Character_Creator', 'TMDB_Image_Entity'].includes(table) ? '' : expected);
    }
    expect(columnsOf(db, 'AniDB_Character_Creator')).toBe(SHOKO_TABLE_COLUMNS_V122.AniDB_Character_Creator);
    expect(count(db, 'SELECT count(*) FROM AniDB_Character_Creator')).toBeGreaterThan(0);
  });

  it('keeps every reference and count consistent', () => {
    expectConsistent(db, manifest);
    expectFiguresFromWatchStates(db);
  });

  it("writes the Windows machine's paths and leaves the per-user tables in the WAL", () => {
    expect(all(db, 'SELECT ImportFolderLocation FROM ImportFolder ORDER BY 1').map((row) => row.ImportFolderLocation)).toEqual([
      'D:\\Anime\\Anime\\',
      'D:\\Anime\\Downloads\\',
    ]);
    expect(count(db, "SELECT count(*) FROM VideoLocal_Place WHERE FilePath LIKE '%\\%' AND FilePath NOT LIKE '%/%'")).toBeGreaterThan(20);
    expect(fs.statSync(`${manifest.databasePath}-wal`).size).toBeGreaterThan(0);
    expect(count(db, 'SELECT count(*) FROM VideoLocal_User')).toBe(manifest.fileStates.length);
  });
});

describe('the large data folder', () => {
  it('scales: files spread over the series, most linked, a few unrecognised, ignored or variations', async () => {
    const { manifest, db } = await writeFolder({ size: 'large', series: 60, files: 1_600, users: 3 });
    try {
      expectConsistent(db, manifest);
      expectFiguresFromWatchStates(db);
      expect(manifest.rowCounts).toMatchObject({ AnimeSeries: 60, VideoLocal: 1_600, JMMUser: 3, AnimeSeries_User: 180 });
      const unrecognised = manifest.files.filter((file) => file.episodeLinks.length === 0 && !file.ignored).length;
      expect(unrecognised / 1_600).toBeGreaterThan(0.01);
      expect(unrecognised / 1_600).toBeLessThan(0.03);
      expect(manifest.files.some((file) => file.ignored)).toBe(true);
      expect(manifest.files.some((file) => file.variation)).toBe(true);
      expect(manifest.fileStates.length).toBeGreaterThan(100);
      expect(fs.readdirSync(path.join(manifest.dir, 'Anime_HTTP'))).toHaveLength(60);
      expect(fs.existsSync(manifest.mediaRoot)).toBe(false);
    } finally {
      db.close();
    }
  });
});

describe('schema versions we do not support', () => {
  it.each([110, 139])('still writes the 5.3.3 tables, with version %i in Versions', async (version) => {
    const { manifest, db } = await writeFolder({ size: 'small', schemaVersion: version });
    try {
      expect(manifest.schemaShape).toBe('v5.3');
      expect(count(db, "SELECT max(CAST(VersionValue AS int)) FROM Versions WHERE VersionType = 'Database'")).toBe(version);
      expect(columnsOf(db, 'AniDB_Character')).toBe(SHOKO_TABLE_COLUMNS_V138.AniDB_Character);
    } finally {
      db.close();
    }
  });
});
