import { Type, type Static } from '@sinclair/typebox';
import { ListParam } from './common.js';
import { Series } from './collection.js';
import { Episode } from './series.js';

/** files.md §1.14 Series.WithEpisodeCount: a series and how many of its episodes are in the release-management category. */
export const SeriesWithEpisodeCount = Type.Composite([Series, Type.Object({ EpisodeCount: Type.Integer() })]);
export type SeriesWithEpisodeCount = Static<typeof SeriesWithEpisodeCount>;

/** An episode of a release-management list: `Files` with includeFiles, `CrossReferences` with includeXRefs. */
export const ReleaseEpisode = Episode;
export type ReleaseEpisode = Episode;

/** files.md §1.14 FileIdSet: the extra locations of a duplicated file that can be removed. */
export const FileIdSet = Type.Object({
  FileID: Type.Integer(),
  AnimeSeriesIDs: Type.Array(Type.Integer()),
  AnimeEpisodeIDs: Type.Array(Type.Integer()),
  FileLocationIDs: Type.Array(Type.Integer()),
});
export type FileIdSet = Static<typeof FileIdSet>;

/** The three release-management categories, as the API's route segments. */
export const RELEASE_MANAGEMENT_TYPES = ['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes'] as const;
export type ReleaseManagementType = (typeof RELEASE_MANAGEMENT_TYPES)[number];

// Query parameters and defaults per endpoint family (files.md §6, R1–R13). `includeDataFrom` is set-typed: unknown
// sources are skipped by the server, not rejected.
const flag = (value: boolean) => Type.Boolean({ default: value });
const Paging = { pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 100 }), page: Type.Integer({ minimum: 1, default: 1 }) };

/** `ReleaseManagement/.../Series/{seriesID}/...`. */
/** The series lists (`ReleaseManagement/{type}/Series`), per category. */
export const ReleaseManagementSeriesQuery = {
  MultipleReleases: Type.Object({ includeDataFrom: ListParam, ignoreVariations: flag(true), onlyFinishedSeries: flag(false), ...Paging }),
  DuplicateFiles: Type.Object({ includeDataFrom: ListParam, onlyFinishedSeries: flag(false), ...Paging }),
  MissingEpisodes: Type.Object({ includeDataFrom: ListParam, collecting: flag(false), onlyFinishedSeries: flag(false), ...Paging }),
};
export type ReleaseManagementSeriesQuery<T extends ReleaseManagementType = ReleaseManagementType> = Static<
  (typeof ReleaseManagementSeriesQuery)[T]
>;

/** The episode lists (`ReleaseManagement/{type}/Episodes` and per series), per category. */
export const ReleaseManagementEpisodesQuery = {
  MultipleReleases: Type.Object({
    includeDataFrom: ListParam,
    includeFiles: flag(true),
    includeMediaInfo: flag(true),
    includeAbsolutePaths: flag(false),
    includeXRefs: flag(false),
    ignoreVariations: flag(true),
    ...Paging,
  }),
  DuplicateFiles: Type.Object({ includeDataFrom: ListParam, includeMediaInfo: flag(true), includeXRefs: flag(false), ...Paging }),
  MissingEpisodes: Type.Object({
    includeDataFrom: ListParam,
    includeFiles: flag(true),
    includeMediaInfo: flag(true),
    includeAbsolutePaths: flag(false),
    includeXRefs: flag(false),
    collecting: flag(false),
    ...Paging,
  }),
};
export type ReleaseManagementEpisodesQuery<T extends ReleaseManagementType = ReleaseManagementType> = Static<
  (typeof ReleaseManagementEpisodesQuery)[T]
>;

/** `.../FilesToDelete`. */
export const ReleaseManagementFilesToDeleteQuery = Type.Object({ ignoreVariations: flag(true) });
export type ReleaseManagementFilesToDeleteQuery = Static<typeof ReleaseManagementFilesToDeleteQuery>;
