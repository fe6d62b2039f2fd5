import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BatchDeleteFileLocationsBody,
  BatchDeleteFilesBody,
  DeleteFileLocationQuery,
  DeleteFileQuery,
  EpisodeSetHiddenQuery,
  FileFlagQuery,
  FileSummaryGroup,
  ListResult,
  ReleaseEpisode,
  ReleaseManagementEpisodesQuery,
  ReleaseManagementSeriesQuery,
  ReleaseManagementType,
  SeriesWithEpisodeCount,
} from '@shoko-ts/contract';
import { api } from './client';
import { countFailures } from './files';
import { PREFETCHED_FRESH_MS } from './fresh';
import { fileKeys, importFolderKeys } from './keys';

/** The console's toggles, as the API takes them (contract files.md §6: `onlyCollecting` is sent as `collecting`). */
export interface ReleaseToggles {
  ignoreVariations: boolean;
  collecting: boolean;
  onlyFinishedSeries: boolean;
}

/** A Quick Select group of `WebUI/Series/{id}/FileSummary` with the details the modal asks for. */
export type QuickSelectGroup = FileSummaryGroup & {
  ImportFolder?: number;
  VideoHasChapters?: boolean;
  Episodes?: Array<{ EpisodeID: number; FileID: number }>;
  Locations?: Array<{ ID: number; FileID: number; ImportFolderID: number; RelativePath: string }>;
};

export const RELEASE_PAGE_SIZE = 50;

export const releaseKeys = {
  all: ['release-management'] as const,
  series: (type: ReleaseManagementType, toggles: ReleaseToggles, page: number) =>
    ['release-management', type, 'series', toggles, page] as const,
  episodes: (type: ReleaseManagementType, seriesId: number, toggles: ReleaseToggles, page: number) =>
    ['release-management', type, seriesId, 'episodes', toggles, page] as const,
  quickSelect: (type: ReleaseManagementType, seriesId: number) => ['release-management', type, seriesId, 'quick-select'] as const,
};

/** The console sends every toggle to every category; each list reads the ones it has. */
type SeriesQuery = Partial<ReleaseManagementSeriesQuery<'MultipleReleases'> & ReleaseManagementSeriesQuery<'MissingEpisodes'>>;
type EpisodesQuery = Partial<ReleaseManagementEpisodesQuery<'MultipleReleases'> & ReleaseManagementEpisodesQuery<'MissingEpisodes'>>;

const seriesQuery = (toggles: ReleaseToggles, page: number, pageSize = RELEASE_PAGE_SIZE): SeriesQuery => ({ ...toggles, pageSize, page });

/** The toggles as the page keeps them in its URL: Ignore Variations on unless turned off, the others off unless on. */
export function releaseTogglesOf(params: URLSearchParams): ReleaseToggles {
  return {
    ignoreVariations: params.get('ignoreVariations') !== 'false',
    collecting: params.get('onlyCollecting') === 'true',
    onlyFinishedSeries: params.get('onlyFinishedSeries') === 'true',
  };
}

/** One page of a category's series (the page, and the route's prefetch). */
export const releaseSeriesQuery = (type: ReleaseManagementType, toggles: ReleaseToggles, page: number) =>
  queryOptions({
    queryKey: releaseKeys.series(type, toggles, page),
    queryFn: ({ signal }) =>
      api.get<ListResult<SeriesWithEpisodeCount>>(`ReleaseManagement/${type}/Series`, { query: seriesQuery(toggles, page), signal }),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useReleaseSeries(type: ReleaseManagementType, toggles: ReleaseToggles, page: number) {
  return useQuery({ ...releaseSeriesQuery(type, toggles, page), placeholderData: keepPreviousData });
}

function episodesOf(
  type: ReleaseManagementType,
  seriesId: number,
  toggles: ReleaseToggles,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
) {
  return api.get<ListResult<ReleaseEpisode>>(`ReleaseManagement/${type}/Series/${seriesId}/Episodes`, {
    query: {
      ignoreVariations: toggles.ignoreVariations,
      collecting: toggles.collecting,
      includeDataFrom: 'AniDB',
      includeAbsolutePaths: true,
      pageSize,
      page,
    } satisfies EpisodesQuery,
    signal,
  });
}

export function useReleaseEpisodes(type: ReleaseManagementType, seriesId: number, toggles: ReleaseToggles, page: number) {
  return useQuery({
    queryKey: releaseKeys.episodes(type, seriesId, toggles, page),
    queryFn: ({ signal }) => episodesOf(type, seriesId, toggles, page, RELEASE_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
}

const QUICK_SELECT_QUERY = {
  MultipleReleases: {
    groupBy: [
      'GroupName',
      'FileSource',
      'FileVersion',
      'ImportFolder',
      'VideoCodecs',
      'VideoResolution',
      'AudioLanguages',
      'SubtitleLanguages',
      'VideoHasChapters',
    ],
    includeEpisodeDetails: true,
    includeLocationDetails: false,
  },
  DuplicateFiles: {
    groupBy: ['ImportFolder', 'FileLocation', 'MultipleLocations'],
    includeEpisodeDetails: true,
    includeLocationDetails: true,
  },
} as const;

/** Quick Select: the series' release groups, and every episode of the category (to keep at least one copy of each). */
export function useQuickSelect(type: 'MultipleReleases' | 'DuplicateFiles', seriesId: number, toggles: ReleaseToggles, enabled: boolean) {
  return useQuery({
    queryKey: releaseKeys.quickSelect(type, seriesId),
    queryFn: async ({ signal }) => {
      const [summary, episodes] = await Promise.all([
        api.get<{ Groups: QuickSelectGroup[] }>(`WebUI/Series/${seriesId}/FileSummary`, { query: { ...QUICK_SELECT_QUERY[type] }, signal }),
        // pageSize 0 = every episode of the series in the category.
        episodesOf(type, seriesId, toggles, 1, 0, signal),
      ]);
      return { groups: summary.Groups, episodes: episodes.List };
    },
    enabled,
    gcTime: 0,
  });
}

/** What one confirmed episode (or a Quick Select) changes. */
export interface ReleaseChanges {
  deleteFiles: number[];
  deleteLocations: number[];
  variations: Array<{ fileId: number; value: boolean }>;
}

function useAfterChanges() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: releaseKeys.all });
    void queryClient.invalidateQueries({ queryKey: fileKeys.all });
    void queryClient.invalidateQueries({ queryKey: importFolderKeys.list });
  };
}

/**
 * Applies file options through the files API: deletions remove the file from disk (the server confines that to
 * import folders) and are only sent after the user confirmed what leaves the disk.
 */
export function useApplyReleaseChanges() {
  const refresh = useAfterChanges();
  return useMutation({
    mutationFn: async (changes: ReleaseChanges) => {
      const variation = new Map(changes.variations.map((v) => [v.fileId, v.value]));
      const failed =
        (await countFailures([...variation.keys()], (id) =>
          api.put<void>(`File/${id}/Variation`, undefined, { query: { value: variation.get(id)! } satisfies FileFlagQuery }),
        )) +
        (await countFailures(changes.deleteFiles, (id) =>
          api.delete<void>(`File/${id}`, undefined, { query: { removeFiles: true, removeFolder: true } satisfies DeleteFileQuery }),
        )) +
        (await countFailures(changes.deleteLocations, (id) =>
          api.delete<void>(`File/Location/${id}`, undefined, {
            query: { deleteFile: true, deleteFolder: true } satisfies DeleteFileLocationQuery,
          }),
        ));
      if (failed) throw new Error('One or more operations failed!');
    },
    onSettled: refresh,
  });
}

/** Quick Select's batch deletions: whole files (multiples) or single locations (duplicates). */
export function useQuickSelectDelete() {
  const refresh = useAfterChanges();
  return useMutation({
    mutationFn: async ({ fileIds, locationIds }: { fileIds: number[]; locationIds: number[] }) => {
      try {
        if (fileIds.length)
          await api.delete<void>('File', { fileIDs: fileIds, removeFiles: true, removeFolders: true } satisfies BatchDeleteFilesBody);
        if (locationIds.length)
          await api.delete<void>('File/Location', {
            locationIDs: locationIds,
            removeFiles: true,
            removeFolders: true,
          } satisfies BatchDeleteFileLocationsBody);
      } catch {
        throw new Error('One or more operations failed!');
      }
    },
    onSettled: refresh,
  });
}

/** Missing episodes → Hide: hidden episodes stop counting as missing. */
export function useHideEpisodes() {
  const refresh = useAfterChanges();
  return useMutation({
    mutationFn: async (episodeIds: readonly number[]) => {
      const failed = await countFailures(episodeIds, (id) =>
        api.post<void>(`Episode/${id}/SetHidden`, undefined, { query: { value: true, updateStats: true } satisfies EpisodeSetHiddenQuery }),
      );
      if (failed) throw new Error('One or more operations failed!');
    },
    onSettled: refresh,
  });
}
