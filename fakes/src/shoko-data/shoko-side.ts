import type { AnimeSpec, EpisodeStateSpec, FileSpec, FileStateSpec, GroupSpec, ImportFolderSpec, SeriesSpec } from './collection.js';
import type { ManifestEpisode, ManifestMediaSample } from './manifest.js';

/** Helpers both generators use to build Shoko's side of a collection consistently. */

export interface MediaRoots {
  mediaRoot: string;
  shokoMediaRoot: string;
}

/** The Shoko machine's separator: a root written with backslashes (and no slash) is a Windows path. */
export const shokoSeparatorOf = (shokoMediaRoot: string): '\\' | '/' =>
  shokoMediaRoot.includes('\\') && !shokoMediaRoot.includes('/') ? '\\' : '/';

/** A path relative to an import folder, in the Shoko machine's separators. */
export const shokoRelativePath = (roots: MediaRoots, posixPath: string): string =>
  shokoSeparatorOf(roots.shokoMediaRoot) === '\\' ? posixPath.replace(/\//g, '\\') : posixPath;

export function importFolder(
  roots: MediaRoots,
  folder: Omit<ImportFolderSpec, 'shokoPath' | 'localPath'> & { directory: string },
): ImportFolderSpec {
  const separator = shokoSeparatorOf(roots.shokoMediaRoot);
  const root = roots.shokoMediaRoot.endsWith(separator) ? roots.shokoMediaRoot : roots.shokoMediaRoot + separator;
  const localRoot = roots.mediaRoot.endsWith('/') ? roots.mediaRoot : `${roots.mediaRoot}/`;
  const { directory, ...rest } = folder;
  return { ...rest, shokoPath: `${root}${directory}${separator}`, localPath: `${localRoot}${directory}` };
}

/** One Shoko episode per AniDB episode of the series' anime, numbered from `firstId`. */
export function episodesOfSeries(series: SeriesSpec, anime: AnimeSpec, firstId: number): ManifestEpisode[] {
  return anime.episodes.map((episode, index) => ({
    id: firstId + index,
    seriesId: series.id,
    anidbEpisodeId: episode.id,
    hidden: false,
    titleOverride: null,
  }));
}

/** A group whose name and main anime come from its first series' anime unless given. */
export function groupOf(fields: Partial<GroupSpec> & Pick<GroupSpec, 'id' | 'name' | 'mainAnimeId'>): GroupSpec {
  return { customName: false, parentId: null, defaultSeriesId: null, description: null, animeIds: [], favouriteOf: [], ...fields };
}

/**
 * The media sample of a file: video, Japanese audio (and an English dub) and English subtitles, with chapters. Without
 * `file` the sample names no file, so files sharing the other options share one blob.
 */
export function mediaSample(
  file: Pick<FileSpec, 'fileName' | 'size'> | null,
  options: { minutes: number; height: 1080 | 720 | 480; hevc?: boolean; dualAudio?: boolean; chapters?: boolean },
): ManifestMediaSample {
  const width = { 1080: 1920, 720: 1280, 480: 854 }[options.height];
  const audio: ManifestMediaSample['audio'] = [{ codec: options.hevc ? 'FLAC' : 'AAC', language: 'ja', channels: 2 }];
  if (options.dualAudio) audio.push({ codec: 'AC-3', language: 'en', channels: 6, title: 'English dub' });
  const duration = options.minutes * 60 - 13;
  return {
    durationSeconds: duration,
    width,
    height: options.height,
    videoCodec: options.hevc ? 'HEVC' : 'AVC',
    bitDepth: options.hevc ? 10 : 8,
    frameRate: 23.976,
    audio,
    subtitles: [{ codec: 'ASS', language: 'en', title: 'Full Subtitles' }],
    chapters: options.chapters
      ? [
          { startSeconds: 0, title: 'Opening' },
          { startSeconds: 90, title: 'Part A' },
          { startSeconds: Math.floor(duration / 2), title: 'Part B' },
        ]
      : undefined,
    ...(file ? { fileSizeBytes: file.size, fileName: file.fileName } : {}),
    container: 'Matroska',
  };
}

/**
 * Records that a user watched (or, with `watchedAt` null, started and stopped) a file: its VideoLocal_User and the
 * AnimeEpisode_User of every episode it is linked to, the way Shoko updates both on playback.
 */
export class WatchRecorder {
  readonly fileStates: FileStateSpec[] = [];
  readonly episodeStates: EpisodeStateSpec[] = [];
  private readonly episodeStateByKey = new Map<string, EpisodeStateSpec>();

  /** `episodeIdByAnidbId`: AnimeEpisodeID by AniDB episode id. */
  constructor(private readonly episodeIdByAnidbId: Map<number, number>) {}

  record(
    file: FileSpec,
    userId: number,
    watch: { watchedAt: Date | null; stoppedAt?: Date; watchedCount?: number; resumePositionMs?: number },
  ): void {
    const watchedCount = watch.watchedCount ?? (watch.watchedAt ? 1 : 0);
    this.fileStates.push({
      userId,
      fileId: file.id,
      resumePositionMs: watch.resumePositionMs ?? 0,
      watchedAt: watch.watchedAt,
      watchedCount,
      lastUpdated: watch.watchedAt ?? watch.stoppedAt ?? new Date(0),
    });
    for (const link of file.episodeLinks) {
      const episodeId = this.episodeIdByAnidbId.get(link.episodeId);
      if (episodeId === undefined) continue;
      const key = `${userId}:${episodeId}`;
      let state = this.episodeStateByKey.get(key);
      if (!state) {
        state = { userId, episodeId, watchedAt: null, watchedCount: 0, playedCount: 0, stoppedCount: 0 };
        this.episodeStateByKey.set(key, state);
        this.episodeStates.push(state);
      }
      if (watch.watchedAt && (!state.watchedAt || watch.watchedAt > state.watchedAt)) state.watchedAt = watch.watchedAt;
      state.watchedCount += watchedCount;
      state.playedCount += Math.max(watchedCount, 1);
      if (!watch.watchedAt) state.stoppedCount += 1;
    }
  }
}

/** The custom tags a fresh Shoko database starts with (names as Shoko has them; descriptions our own). */
export const STARTER_CUSTOM_TAGS = [
  { name: 'Dropped', description: 'Stopped watching this one.' },
  { name: 'Pinned', description: 'Kept at hand on purpose.' },
  { name: 'Ongoing', description: 'Still airing, no end date yet.' },
  { name: 'Waiting for Series Completion', description: 'To watch once every episode is out.' },
  { name: 'Waiting for Blu-ray Completion', description: 'To watch once the Blu-ray release is complete.' },
];
