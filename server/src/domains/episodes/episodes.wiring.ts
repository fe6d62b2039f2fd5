import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { FilesService } from '../files/index.js';
import { EpisodeImagesService } from './episode-images.service.js';
import { EpisodeImagesStore } from './episode-images.store.js';
import { EpisodesService, type EpisodeFiles } from './episodes.service.js';
import { EpisodesStore } from './episodes.store.js';

type EpisodesDeps = ConstructorParameters<typeof EpisodesService>[0];

/** From this many episodes of one series on, their files are read for the whole series. */
export const SERIES_WIDE_FROM = 100;

/** `includeFiles`: the files of each episode in the File model of the files domain, from one file list for them all. */
function episodeFilesFrom(files: Pick<FilesService, 'contentsOfEpisodes' | 'list' | 'filesOfSeriesEpisodes'>): EpisodeFiles {
  return async (episodeIds, o) => {
    const include = [
      ...(o.includeMediaInfo ? ['MediaInfo' as const] : []),
      ...(o.includeAbsolutePaths ? ['AbsolutePaths' as const] : []),
      ...(o.includeXRefs ? ['XRefs' as const] : []),
    ];
    // Many episodes of one series: their files from the series' episodes in one statement (a page of a few reads
    // only its own contents below).
    if (o.seriesId !== undefined && episodeIds.length > SERIES_WIDE_FROM)
      return files.filesOfSeriesEpisodes(o.seriesId, episodeIds, {
        include,
        includeDataFrom: o.dataFrom,
        viewerId: o.viewerId,
        crossReferences: o.crossReferences,
      });
    // One file list for every episode's contents, then each episode takes its own (in the list's order).
    const byEpisode = await files.contentsOfEpisodes(episodeIds);
    const contents = new Set([...byEpisode.values()].flatMap((set) => [...set]));
    if (!contents.size) return new Map();
    const page = await files.list({
      page: 1,
      pageSize: 0,
      include,
      exclude: [],
      includeOnly: [],
      sortOrder: [],
      contents,
      includeDataFrom: o.dataFrom,
      viewerId: o.viewerId,
      crossReferences: o.crossReferences,
    });
    const position = new Map(page.List.map((file, index) => [file, index]));
    const byContent = new Map<string, typeof page.List>();
    for (const file of page.List) {
      const key = `${file.Hashes.ED2K}:${file.Size}`;
      byContent.set(key, [...(byContent.get(key) ?? []), file]);
    }
    return new Map(
      [...byEpisode].map(([episodeId, own]) => [
        episodeId,
        [...own].flatMap((key) => byContent.get(key) ?? []).sort((a, b) => position.get(a)! - position.get(b)!),
      ]),
    );
  };
}

/** Builds the episodes service over its stores, with the files, cross-references, images and TMDB data it shows. */
export function createEpisodesDomain(
  deps: {
    db: Kysely<Database>;
    dialect: DialectName;
    files: Pick<FilesService, 'contentsOfEpisodes' | 'list' | 'filesOfSeriesEpisodes'>;
    images: ConstructorParameters<typeof EpisodeImagesService>[1];
  } & Pick<EpisodesDeps, 'access' | 'bus' | 'crossReferences' | 'tmdbData'>,
): EpisodesService {
  return new EpisodesService({
    access: deps.access,
    bus: deps.bus,
    store: new EpisodesStore(deps.db, deps.dialect),
    episodeFiles: episodeFilesFrom(deps.files),
    // `includeXRefs`: the file cross-references of the metadata domain.
    crossReferences: deps.crossReferences,
    images: new EpisodeImagesService(new EpisodeImagesStore(deps.db), deps.images),
    tmdbData: deps.tmdbData,
  });
}
