import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DemoLibrary } from '../demo/library.js';
import { fileCommands } from '../anidb-udp/file-commands.js';
import type { FakeUdpReply } from '../anidb-udp/protocol.js';
import type { FileSpec, GroupSpec, SeriesSpec, ShokoCollection } from './collection.js';
import { writeShokoDatabase } from './database.js';
import { demoAnimeCatalog } from './demo-anime.js';
import { anidbCharacterImagePath, anidbCreatorImagePath, anidbPosterPath, tinyJpeg } from './images.js';
import type { ManifestEpisode } from './manifest.js';
import type { ShokoMediaSample } from './media-blob.js';
import { bit } from './row-writer.js';
import { hashesOf } from './media-files.js';
import { shokoSettingsJson } from './settings.js';
import { episodesOfSeries, groupOf, STARTER_CUSTOM_TAGS } from './shoko-side.js';

/**
 * The demo library (fakes/src/demo) as Shoko Server 5.3.3 (schema 138) has it after scanning it with the demo's AniDB:
 * one import folder at the library, its files with their real hashes (the same content in two places is one file with
 * two locations), what AniDB's FILE answered for each, the anime of the demo's own XML in the tables and the XML cache,
 * groups as Shoko's auto-grouping makes them (a sequel joins its prequel's group), one admin with Shoko's password hash
 * and an API key, and a settings-server.json with Shoko's defaults and the AniDB account.
 */

export interface ShokoDemoFolderOptions {
  /** The admin Shoko knew (JMMUser; the password is stored as Shoko hashes it). */
  user: { name: string; password: string };
  /** A key a client of that user got from Shoko (AuthTokens.Token). */
  apiKey: string;
  /** The AniDB account of Shoko's settings (the demo's AniDB fakes accept it). */
  anidb: { username: string; password: string };
}

export interface ShokoDemoFolder {
  dir: string;
  databasePath: string;
  settingsPath: string;
}

const SCHEMA_VERSION = 138;
const IMPORT_FOLDER_ID = 1;
const USER_ID = 1;
const API_KEY_DEVICE = 'Shoko Jellyfin Plugin (Shokofin)';

/** What MediaInfo reads from every demo file: fixtures/sample.mkv (see its README) with a Void element appended. */
const DEMO_MEDIA: ShokoMediaSample = {
  durationSeconds: 1.04,
  width: 320,
  height: 240,
  videoCodec: 'AVC',
  bitDepth: 8,
  frameRate: 24,
  audio: [
    { codec: 'AAC', language: 'ja', channels: 2, title: 'Japanese Stereo' },
    { codec: 'AC-3', language: 'en', channels: 1, title: 'English Commentary' },
  ],
  subtitles: [
    { codec: 'ASS', language: 'en', title: 'Signs & Songs', forced: true },
    { codec: 'UTF-8', language: 'de' },
  ],
  chapters: [
    { startSeconds: 0, title: 'Opening' },
    { startSeconds: 0.5, title: 'Part A' },
  ],
  container: 'Matroska',
};

/** Shoko's FileSource names (AniDB_File.File_Source) for AniDB's source texts. */
const FILE_SOURCES: Record<string, string> = { www: 'Web', tv: 'TV', dtv: 'TV', hdtv: 'TV', dvd: 'DVD', 'blu-ray': 'BluRay', vhs: 'VHS' };

export async function writeShokoDemoFolder(
  dir: string,
  demo: DemoLibrary,
  libraryPath: string,
  options: ShokoDemoFolderOptions,
): Promise<ShokoDemoFolder> {
  const now = new Date();
  // Shoko scanned the library two hours ago: its AniDB data is recent enough not to be fetched again.
  const scannedAt = new Date(now.getTime() - 2 * 3_600_000);
  const { files, chaptered } = await libraryFiles(demo, path.resolve(libraryPath), scannedAt);
  const animeIds = [...new Set(files.flatMap((file) => file.episodeLinks.map((link) => link.animeId)))].sort((a, b) => a - b);
  const catalog = demoAnimeCatalog(demo.anime, animeIds, scannedAt);
  const { groups, series, episodes } = grouping(catalog.anime);

  const collection: ShokoCollection = {
    ...catalog,
    releaseGroups: demo.groups,
    users: [
      {
        id: USER_ID,
        name: options.user.name,
        password: options.user.password,
        isAdmin: true,
        hiddenTags: [],
        plexUsers: [],
        plexToken: null,
        hasAvatar: false,
        avatar: null,
        apiKeys: [{ deviceName: API_KEY_DEVICE, token: options.apiKey }],
      },
    ],
    importFolders: [
      {
        id: IMPORT_FOLDER_ID,
        name: 'Demo Library',
        shokoPath: `${path.resolve(libraryPath)}${path.sep}`,
        localPath: path.resolve(libraryPath),
        dropSource: true,
        dropDestination: false,
        watched: false,
      },
    ],
    files,
    groups,
    series,
    episodes,
    episodeStates: [],
    fileStates: [],
    votes: [],
    // A fresh Shoko database starts with these; nothing is tagged.
    customTags: STARTER_CUSTOM_TAGS.map((tag, index) => ({ id: index + 1, ...tag, animeIds: [], starter: true })),
    ignoredAnime: [],
    tmdb: { shows: [], movies: [] },
    sampleFilterPresets: false,
    unsupportedRenamer: false,
    images: true,
  };

  for (const folder of ['SQLite', 'Anime_HTTP']) fs.mkdirSync(path.join(dir, folder), { recursive: true });
  const databasePath = path.join(dir, 'SQLite', 'JMMServer.db3');
  writeShokoDatabase(databasePath, collection, { shape: 'v5.3', schemaVersion: SCHEMA_VERSION, leaveWal: false, now });
  storeAsShokoDoes(databasePath, collection, chaptered);
  // The XML cache holds what AniDB sent, byte for byte: the demo's own records.
  for (const anime of catalog.anime) fs.writeFileSync(path.join(dir, 'Anime_HTTP', `AnimeDoc_${anime.id}.xml`), demo.anime[anime.id]);
  writePictures(dir, collection);
  const settingsPath = path.join(dir, 'settings-server.json');
  fs.writeFileSync(settingsPath, demoSettingsJson(path.resolve(dir), options.anidb));
  return { dir, databasePath, settingsPath };
}

/**
 * The library's files as Shoko hashed them, each with what AniDB's FILE command answers for its size and ED2K; also the
 * AniDB files whose answer has the chaptered state bit.
 */
async function libraryFiles(
  demo: DemoLibrary,
  libraryPath: string,
  scannedAt: Date,
): Promise<{ files: FileSpec[]; chaptered: Set<number> }> {
  const anidbFile = fileCommands(demo.files, demo.groups).FILE;
  // Shoko names a file after the location it hashed first: the release as AniDB knows it, before a copy elsewhere.
  const releaseNames = new Set(demo.files.map((file) => file.fileName));
  const firstHashed = (relativePath: string) => (releaseNames.has(path.posix.basename(relativePath)) ? 0 : 1);
  const paths = fs
    .readdirSync(libraryPath, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(libraryPath, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort((a, b) => firstHashed(a) - firstHashed(b) || a.localeCompare(b));
  const byContent = new Map<string, FileSpec>();
  const chaptered = new Set<number>();
  let locationId = 1;
  for (const relativePath of paths) {
    const content = fs.readFileSync(path.join(libraryPath, relativePath));
    const hashes = await hashesOf(content);
    const contentKey = `${hashes.ed2k}/${content.length}`;
    const location = { id: locationId++, importFolderId: IMPORT_FOLDER_ID, relativePath, exists: true };
    const known = byContent.get(contentKey);
    if (known) {
      known.locations.push(location);
      continue;
    }
    const id = byContent.size + 1;
    const fileName = path.posix.basename(relativePath);
    const createdAt = new Date(scannedAt.getTime() + id * 60_000);
    const reply = anidbFile.handle(
      { command: 'FILE', params: { size: String(content.length), ed2k: hashes.ed2k }, tag: null, session: null },
      { users: {}, sessions: new Map(), peer: { address: '127.0.0.1', port: 0 }, session: null },
    );
    const { state, ...anidb } = anidbAnswer(reply, createdAt);
    // AniDB's state flags: 4096 = chaptered.
    if (anidb.anidbFileId !== null && state & 4096) chaptered.add(anidb.anidbFileId);
    byContent.set(contentKey, {
      id,
      fileName,
      ...hashes,
      size: content.length,
      ignored: false,
      variation: false,
      media: { ...DEMO_MEDIA, fileSizeBytes: content.length, fileName },
      locations: [location],
      content: null,
      createdAt,
      anidbCheckedAt: new Date(createdAt.getTime() + 30_000),
      ...anidb,
    });
  }
  return { files: [...byContent.values()], chaptered };
}

type AniDBPart = Pick<
  FileSpec,
  'episodeLinks' | 'anidbFileId' | 'releaseGroupId' | 'audioLanguages' | 'subtitleLanguages' | 'importedAt' | 'anidbSource'
>;

/** AniDB's FILE reply (fid, aid, eid, gid, lid, other episodes, deprecated, state, quality, source, audio, subtitles, ...). */
function anidbAnswer(reply: FakeUdpReply | null, createdAt: Date): AniDBPart & { state: number } {
  if (reply?.code !== 220 || !reply.rows?.[0]) {
    return {
      episodeLinks: [],
      anidbFileId: null,
      releaseGroupId: null,
      audioLanguages: [],
      subtitleLanguages: [],
      importedAt: null,
      anidbSource: '',
      state: 0,
    };
  }
  const [fileId, animeId, episodeId, groupId, , other, , state, , source, audio, subtitles] = reply.rows[0].map(String);
  const others = other ? other.split("'").map((entry) => entry.split(',').map(Number)) : [];
  const list = (value: string) => (value ? value.split("'") : []);
  return {
    episodeLinks: [[Number(episodeId), 100], ...others].map(([id, percentage], index) => ({
      animeId: Number(animeId),
      episodeId: id,
      source: 'AniDB' as const,
      percentage,
      order: index + 1,
    })),
    anidbFileId: Number(fileId),
    releaseGroupId: Number(groupId) || null,
    audioLanguages: list(audio),
    subtitleLanguages: list(subtitles),
    importedAt: new Date(createdAt.getTime() + 60_000),
    anidbSource: FILE_SOURCES[source] ?? 'Unknown',
    state: Number(state),
  };
}

/**
 * Shoko's auto-grouping: an anime joins the group of an anime it is a sequel, prequel, side story, ... of (AniDB's
 * relations but same setting, character and other, Shoko's default exclusions); the group is named after and led by
 * its earliest anime. Every AniDB episode of a series gets a Shoko episode.
 */
function grouping(anime: ShokoCollection['anime']): Pick<ShokoCollection, 'groups' | 'series' | 'episodes'> {
  const excluded = new Set(['Same Setting', 'Character', 'Other']);
  const byStart = [...anime].sort((a, b) => (a.startDate ?? '').localeCompare(b.startDate ?? '') || a.id - b.id);
  const groupOfAnime = new Map<number, number>();
  const groups: GroupSpec[] = [];
  for (const one of byStart) {
    const related = one.relations.filter((relation) => !excluded.has(relation.type)).map((relation) => groupOfAnime.get(relation.id));
    let groupId = related.find((id) => id !== undefined);
    if (groupId === undefined) {
      groupId = groups.length + 1;
      groups.push(groupOf({ id: groupId, name: one.titles.find((title) => title.type === 'main')!.value, mainAnimeId: one.id }));
    }
    groupOfAnime.set(one.id, groupId);
    groups[groupId - 1].animeIds.push(one.id);
  }
  const series: SeriesSpec[] = anime.map((one, index) => ({
    id: index + 1,
    animeId: one.id,
    groupId: groupOfAnime.get(one.id)!,
    titleOverride: null,
  }));
  const episodes: ManifestEpisode[] = [];
  for (const one of series)
    episodes.push(
      ...episodesOfSeries(
        one,
        anime.find((a) => a.id === one.animeId)!,
        episodes.length + 1,
      ),
    );
  return { groups, series, episodes };
}

/**
 * Two columns the shared row writers fill otherwise than Shoko does for this library: a group whose description is
 * not overridden holds its main anime's (rows-shoko.ts ties Description to OverrideDescription), and
 * AniDB_File.IsChaptered is AniDB's state bit (rows-anidb.ts reads it from the media's chapters).
 */
function storeAsShokoDoes(databasePath: string, collection: ShokoCollection, chaptered: Set<number>): void {
  const db = new Database(databasePath);
  try {
    db.transaction(() => {
      const description = db.prepare('UPDATE AnimeGroup SET Description = ? WHERE AnimeGroupID = ?');
      for (const group of collection.groups) {
        description.run(collection.anime.find((anime) => anime.id === group.mainAnimeId)!.description, group.id);
      }
      const chapters = db.prepare('UPDATE AniDB_File SET IsChaptered = ? WHERE FileID = ?');
      for (const file of collection.files)
        if (file.anidbFileId !== null) chapters.run(bit(chaptered.has(file.anidbFileId)), file.anidbFileId);
    })();
  } finally {
    db.close();
  }
}

/** The AniDB pictures Shoko downloaded: posters, characters and voice actors. */
function writePictures(dir: string, collection: ShokoCollection): void {
  const pictures = [
    ...collection.anime.map((anime) => anidbPosterPath(anime.id, anime.picture)),
    ...collection.characters.map((character) => anidbCharacterImagePath(character.id, character.picture)),
    ...collection.creators.flatMap((creator) => (creator.picture ? [anidbCreatorImagePath(creator.id, creator.picture)] : [])),
  ];
  for (const relative of pictures) {
    const target = path.join(dir, ...relative.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, tinyJpeg(relative));
  }
}

/** settings-server.json of an install left at Shoko's defaults but for the AniDB login. */
function demoSettingsJson(dataDir: string, anidb: ShokoDemoFolderOptions['anidb']): string {
  const settings = JSON.parse(
    shokoSettingsJson({
      dataDir,
      windows: false,
      settings: {
        aniDbUsername: anidb.username,
        aniDbPassword: anidb.password,
        tmdbApiKey: null,
        seriesTitleLanguageOrder: ['x-main'],
        episodeTitleLanguageOrder: ['en'],
      },
    }),
  );
  // The sample settings are those of a configured install; these are the parts a fresh one has otherwise.
  Object.assign(settings.Language, { UseSynonyms: false, EpisodeTitleSourceOrder: ['TMDB', 'AniDB'] });
  Object.assign(settings.AniDb, {
    DownloadRelatedAnime: false,
    DownloadReleaseGroups: false,
    MaxRelationDepth: 1,
    AVDumpKey: null,
    Calendar_UpdateFrequency: 'Never',
    Anime_UpdateFrequency: 'Never',
    Notification_UpdateFrequency: 'Never',
  });
  Object.assign(settings.TMDB, {
    AutoLink: true,
    AutoLinkRestricted: true,
    DownloadAllTitles: false,
    MaxAutoBackdrops: 10,
    MaxAutoPosters: 10,
    AutoDownloadStaffImages: true,
  });
  Object.assign(settings.Import, { RunOnStart: false, ScanDropFoldersOnStart: false });
  Object.assign(settings.Plugins.Renamer, { EnabledRenamers: {}, RelocateOnImport: false, RenameOnImport: false, MoveOnImport: false });
  settings.Plex = { Libraries: [], Server: '' };
  settings.TraktTv = { Enabled: false, AuthToken: '', RefreshToken: '', TokenExpirationDate: '', SyncFrequency: 'Daily' };
  settings.WebUI_Settings = '';
  return JSON.stringify(settings, null, 2);
}
