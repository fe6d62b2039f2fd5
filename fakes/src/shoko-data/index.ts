import fs from 'node:fs';
import path from 'node:path';
import { animeDocXml } from './anime-doc.js';
import { ANIME_TYPES, type ShokoCollection } from './collection.js';
import { writeShokoDatabase } from './database.js';
import { anidbCharacterImagePath, anidbCreatorImagePath, anidbPosterPath, tinyJpeg, tmdbImagePath } from './images.js';
import { largeCollection } from './large-collection.js';
import type { ShokoDataFolderManifest } from './manifest.js';
import { tmdbImages } from './rows-extras.js';
import { schemaShapeOf } from './schema.js';
import { SAMPLE_SETTINGS, shokoSettingsJson } from './settings.js';
import { shokoSeparatorOf } from './shoko-side.js';
import { smallCollection } from './small-collection.js';
import { shokoDateTime } from './values.js';
import { solidPng } from '../tmdb/png.js';

export type * from './manifest.js';
export { SAMPLE_FILTER_PRESETS, SHOKO_DEFAULT_PRESETS, UNSUPPORTED_SAMPLE_PRESET } from './filter-presets.js';

export interface ShokoDataFolderOptions {
  /** 'small': every kind of row with its edge cases and real small video files; 'large': a scale for the bench. */
  size: 'small' | 'large';
  /** large only: defaults 5,000 series and 100,000 files, 4 users. */
  series?: number;
  files?: number;
  users?: number;
  /**
   * The Versions table's schema version (default 138). 122–130 write the v5.0 shapes of the tables that differ,
   * 131–138 the v5.3.3 shapes; any other number writes the 138 tables with that version (for a refusal test).
   */
  schemaVersion?: number;
  /** Where the import folders' files really are on this machine (small: real files are written there). */
  mediaRoot: string;
  /** How the Shoko machine named mediaRoot in ImportFolderLocation; default = mediaRoot (e.g. 'D:\\Anime\\'). */
  shokoMediaRoot?: string;
  /** Leave the last writes in SQLite/JMMServer.db3-wal (journal_mode WAL, not checkpointed), as a running Shoko would. */
  leaveWal?: boolean;
}

/**
 * Writes a Shoko Server v5.x data folder at `dir` (settings-server.json, SQLite/JMMServer.db3, Anime_HTTP/, images/)
 * and, for the small size, the files of its import folders under `mediaRoot`. Returns what it wrote.
 */
export async function writeShokoDataFolder(dir: string, options: ShokoDataFolderOptions): Promise<ShokoDataFolderManifest> {
  const schemaVersion = options.schemaVersion ?? 138;
  const shape = schemaShapeOf(schemaVersion);
  const mediaRoot = path.resolve(options.mediaRoot);
  const roots = { mediaRoot, shokoMediaRoot: options.shokoMediaRoot ?? mediaRoot };
  const windows = shokoSeparatorOf(roots.shokoMediaRoot) === '\\';
  const now = new Date();
  const collection =
    options.size === 'small'
      ? await smallCollection(roots, now)
      : largeCollection(roots, { series: options.series ?? 5_000, files: options.files ?? 100_000, users: options.users ?? 4 }, now);

  for (const folder of ['SQLite', 'Anime_HTTP', 'images']) fs.mkdirSync(path.join(dir, folder), { recursive: true });
  writeMediaFiles(collection, windows);
  const databasePath = path.join(dir, 'SQLite', 'JMMServer.db3');
  const written = writeShokoDatabase(databasePath, collection, { shape, schemaVersion, leaveWal: options.leaveWal ?? false, now });
  writeAnimeDocs(dir, collection);
  const images = writeImages(dir, collection);
  const settingsPath = path.join(dir, 'settings-server.json');
  fs.writeFileSync(settingsPath, shokoSettingsJson({ dataDir: path.resolve(dir), windows, settings: SAMPLE_SETTINGS }));

  const posters = new Map(collection.anime.map((anime) => [anime.id, anidbPosterPath(anime.id, anime.picture)]));
  const anidbEpisodeOf = new Map(collection.episodes.map((episode) => [episode.id, episode.anidbEpisodeId]));
  return {
    dir,
    databasePath,
    settingsPath,
    schemaVersion,
    schemaShape: shape,
    mediaRoot,
    shokoMediaRoot: roots.shokoMediaRoot,
    walLeft: options.leaveWal ?? false,
    settings: SAMPLE_SETTINGS,
    users: collection.users.map(({ plexToken: _plexToken, avatar: _avatar, ...user }) => user),
    importFolders: collection.importFolders,
    files: collection.files.map(
      ({ content: _content, createdAt: _created, importedAt: _imported, anidbSource: _source, anidbCheckedAt: _checked, ...file }) => file,
    ),
    anime: collection.anime.map((anime) => ({
      id: anime.id,
      mainTitle: anime.titles.find((title) => title.type === 'main')!.value,
      type: ANIME_TYPES[anime.typeText],
      animeDocXml: anime.animeDocXml,
      episodes: anime.episodes.map((episode) => ({ id: episode.id, type: episode.type, number: episode.number })),
      posterImage: collection.images ? posters.get(anime.id)! : null,
    })),
    groups: collection.groups.map(({ description: _description, mainAnimeId: _main, ...group }) => group),
    series: collection.series,
    episodes: collection.episodes,
    episodeStates: collection.episodeStates.map((state) => ({
      userId: state.userId,
      episodeId: state.episodeId,
      anidbEpisodeId: anidbEpisodeOf.get(state.episodeId)!,
      watchedDate: state.watchedAt ? shokoDateTime(state.watchedAt) : null,
      watchedAt: state.watchedAt?.toISOString() ?? null,
      watchedCount: state.watchedCount,
      playedCount: state.playedCount,
      stoppedCount: state.stoppedCount,
    })),
    fileStates: collection.fileStates.map((state) => ({
      userId: state.userId,
      fileId: state.fileId,
      resumePositionMs: state.resumePositionMs,
      watchedDate: state.watchedAt ? shokoDateTime(state.watchedAt) : null,
      watchedAt: state.watchedAt?.toISOString() ?? null,
      watchedCount: state.watchedCount,
    })),
    votes: collection.votes,
    customTags: collection.customTags,
    ignoredAnime: collection.ignoredAnime,
    filterPresets: written.filterPresets,
    renamers: written.renamers,
    tmdb: {
      shows: collection.tmdb.shows.map((show) => ({
        tmdbShowId: show.id,
        animeId: show.animeId,
        title: show.title,
        episodeLinks: show.episodeLinks,
      })),
      movies: collection.tmdb.movies.map((movie) => ({
        tmdbMovieId: movie.id,
        animeId: movie.animeId,
        anidbEpisodeId: movie.anidbEpisodeId,
        title: movie.title,
      })),
    },
    images,
    rowCounts: written.rowCounts,
  };
}

/** The small folder's real files, at every location that is meant to exist. */
function writeMediaFiles(collection: ShokoCollection, windows: boolean): void {
  const folders = new Map(collection.importFolders.map((folder) => [folder.id, folder.localPath]));
  for (const file of collection.files) {
    if (!file.content) continue;
    for (const location of file.locations) {
      if (!location.exists) continue;
      const relative = windows ? location.relativePath.replace(/\\/g, '/') : location.relativePath;
      const target = path.join(folders.get(location.importFolderId)!, relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
  }
}

function writeAnimeDocs(dir: string, collection: ShokoCollection): void {
  const catalog = {
    tags: new Map(collection.tags.map((tag) => [tag.id, tag])),
    characters: new Map(collection.characters.map((character) => [character.id, character])),
    creators: new Map(collection.creators.map((creator) => [creator.id, creator])),
  };
  for (const anime of collection.anime) {
    if (anime.animeDocXml) fs.writeFileSync(path.join(dir, 'Anime_HTTP', `AnimeDoc_${anime.id}.xml`), animeDocXml(anime, catalog));
  }
}

/** Tiny pictures where Shoko caches AniDB posters, characters and creators, and TMDB images. Returns their paths. */
function writeImages(dir: string, collection: ShokoCollection): string[] {
  if (!collection.images) return [];
  const used = new Set(collection.anime.flatMap((anime) => anime.characters.flatMap((link) => [link.id])));
  const seiyuu = new Set(collection.anime.flatMap((anime) => anime.characters.flatMap((link) => link.seiyuuIds)));
  const images = new Map<string, Buffer>();
  for (const anime of collection.anime) images.set(anidbPosterPath(anime.id, anime.picture), tinyJpeg(`poster/${anime.id}`));
  for (const character of collection.characters) {
    if (used.has(character.id)) images.set(anidbCharacterImagePath(character.id, character.picture), tinyJpeg(`character/${character.id}`));
  }
  for (const creator of collection.creators) {
    if (creator.picture && seiyuu.has(creator.id))
      images.set(anidbCreatorImagePath(creator.id, creator.picture), tinyJpeg(`creator/${creator.id}`));
  }
  for (const image of tmdbImages(collection.tmdb)) {
    const bytes = image.remoteFileName.endsWith('.png') ? solidPng(image.remoteFileName, 24, 8) : tinyJpeg(image.remoteFileName);
    images.set(tmdbImagePath(image.remoteFileName), bytes);
  }
  for (const [relative, bytes] of images) {
    const target = path.join(dir, ...relative.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
  return [...images.keys()];
}
