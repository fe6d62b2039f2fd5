import type { Series } from './collection.js';
import type { File } from './files.js';
import type { Episode } from './series.js';

/** files.md §1.14 Series.WithEpisodeCount: a series and how many of its episodes are in the release-management category. */
export type SeriesWithEpisodeCount = Series & { EpisodeCount: number };

/** An episode of a release-management list: `Files` with includeFiles, `CrossReferences` with includeXRefs. */
export type ReleaseEpisode = Episode & { Files?: File[]; CrossReferences?: unknown[] };

/** files.md §1.14 FileIdSet: the extra locations of a duplicated file that can be removed. */
export interface FileIdSet {
  FileID: number;
  AnimeSeriesIDs: number[];
  AnimeEpisodeIDs: number[];
  FileLocationIDs: number[];
}

/** The three release-management categories, as the API's route segments. */
export const RELEASE_MANAGEMENT_TYPES = ['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes'] as const;
export type ReleaseManagementType = (typeof RELEASE_MANAGEMENT_TYPES)[number];
