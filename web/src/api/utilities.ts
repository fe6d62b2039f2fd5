import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnidbAnimeHit as AnidbAnime,
  AnidbEpisode,
  AnidbEpisodeListQuery,
  AnidbRefreshQuery,
  DeleteSeriesQuery,
  Episode,
  EpisodeCrossReference,
  File,
  FileAniDB,
  FileCrossReference,
  FileDetailsQuery,
  FileListQuery,
  ListResult,
  MediaInfo,
  Series,
  SeriesUtilityListQuery,
} from '@shoko-ts/contract';
import { api } from './client';
import { useInvalidate } from './invalidate';
import { fileKeys } from './keys';
import { countFailures } from './files';

/** What the link and add-series flows read of an AniDB anime (the contract's AnidbAnimeHit). */
export type AnidbAnimeHit = Pick<AnidbAnime, 'ID' | 'ShokoID' | 'Type' | 'Title' | 'EpisodeCount'>;

/** What the console reads of a `File.SeriesIDs` entry (the contract's FileCrossReference). */
export interface FileXRef {
  SeriesID: Pick<FileCrossReference['SeriesID'], 'ID' | 'AniDB'>;
  EpisodeIDs: Array<Pick<EpisodeCrossReference, 'ID' | 'AniDB' | 'Source'>>;
}

/** A File with the parts the contract's File model leaves open typed: links, AniDB data and media info. */
export type FileDetails = Omit<File, 'SeriesIDs' | 'AniDB' | 'MediaInfo'> & {
  SeriesIDs?: FileCrossReference[];
  AniDB?: FileAniDB;
  MediaInfo?: MediaInfo;
};

export type SeriesUtilityKind = 'WithoutFiles' | 'WithManuallyLinkedFiles';

export const utilityKeys = {
  seriesLists: ['utilities', 'series'] as const,
  seriesList: (kind: SeriesUtilityKind, page: number, search: string) => ['utilities', 'series', kind, page, search] as const,
  anidbSearch: (text: string) => ['utilities', 'anidb-search', text] as const,
  anidbEpisodes: (anidbId: number) => ['utilities', 'anidb-episodes', anidbId] as const,
  seriesFiles: (seriesId: number, page: number) => ['files', 'list', 'series', seriesId, page] as const,
  fileDetails: (fileId: number) => ['files', 'details', fileId] as const,
  series: (seriesId: number) => ['utilities', 'series-by-id', seriesId] as const,
  episode: (episodeId: number) => ['utilities', 'episode', episodeId] as const,
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Series without files, or with manually linked files: one page of the utility list (SPEC §9 page size 25). */
export function useSeriesUtilityList(kind: SeriesUtilityKind, page: number, search: string, pageSize = 25) {
  return useQuery({
    queryKey: utilityKeys.seriesList(kind, page, search),
    queryFn: ({ signal }) =>
      api.get<ListResult<Series>>(`Series/${kind}`, {
        query: { pageSize, page, search: search || undefined } satisfies Partial<SeriesUtilityListQuery>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** AniDB title search in the path form the console uses (contract S2); nothing is asked for an empty text. */
export function useAnidbSearch(text: string) {
  return useQuery({
    queryKey: utilityKeys.anidbSearch(text),
    queryFn: ({ signal }) => api.get<ListResult<AnidbAnime>>(`Series/AniDB/Search/${encodeURIComponent(text)}`, { signal }),
    enabled: text !== '',
    placeholderData: keepPreviousData,
  });
}

/** Every AniDB episode of an anime, for the link episode pickers (contract S10). */
export function useAnidbEpisodes(anidbId: number | null) {
  return useQuery({
    queryKey: utilityKeys.anidbEpisodes(anidbId ?? 0),
    queryFn: ({ signal }) =>
      api.get<ListResult<AnidbEpisode>>(`Series/AniDB/${anidbId}/Episode`, {
        query: { pageSize: 0, includeMissing: 'true', includeUnaired: 'true' } satisfies Partial<AnidbEpisodeListQuery>,
        signal,
      }),
    enabled: !!anidbId,
  });
}

/** Downloads an anime (and with `createSeriesEntry` creates its series) right away; the server answers true on success. */
export function refreshAnime(anidbId: number, query: Pick<Partial<AnidbRefreshQuery>, 'force' | 'createSeriesEntry'>) {
  return api.post<boolean>(`Series/AniDB/${anidbId}/Refresh`, undefined, {
    query: { ...query, immediate: true } satisfies Partial<AnidbRefreshQuery>,
  });
}

/** A stored AniDB anime (the link flow reads only the AnidbAnimeHit parts). */
export function getAnidbAnime(anidbId: number) {
  return api.get<AnidbAnimeHit>(`Series/AniDB/${anidbId}`);
}

/** Every Shoko episode of a series, hidden ones too, to map AniDB episode ids to Shoko ids before linking. */
export function getShokoEpisodes(seriesId: number) {
  return api.get<ListResult<Episode>>(`Series/${seriesId}/Episode`, {
    query: { pageSize: 0, includeMissing: true, includeHidden: true, includeUnaired: true },
  });
}

export function deleteSeries(seriesId: number) {
  return api.delete<void>(`Series/${seriesId}`, undefined, { query: { deleteFiles: false } satisfies Partial<DeleteSeriesQuery> });
}

/** One file to one or more episodes (1:1, 1:N). */
export function linkFileToEpisodes(fileId: number, episodeIds: number[]) {
  return api.post<void>(`File/${fileId}/Link`, { episodeIDs: episodeIds });
}

/** Several files to one episode (N:1). */
export function linkFilesToEpisode(fileIds: number[], episodeId: number) {
  return api.post<void>('File/Link', { episodeID: episodeId, fileIDs: fileIds });
}

/** Removes series (their file records stay on disk untouched: `deleteFiles=false`). */
export function useDeleteSeries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      const failed = await countFailures(ids, deleteSeries);
      if (failed) throw new Error(`Error deleting ${failed} series!`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: utilityKeys.seriesLists }),
  });
}

/** Downloads an AniDB anime and creates its series, as the Add Series modal does. */
export function useAddSeries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (anidbId: number) => {
      const ok = await refreshAnime(anidbId, { force: true, createSeriesEntry: true });
      if (!ok) throw new Error('Failed to add series! Unable to create series entry.');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: utilityKeys.seriesLists }),
  });
}

/** One page of a series' manually linked files. */
export function useManuallyLinkedFiles(seriesId: number | null, page: number, pageSize = 25) {
  return useQuery({
    queryKey: utilityKeys.seriesFiles(seriesId ?? 0, page),
    queryFn: ({ signal }) =>
      api.get<ListResult<FileDetails>>(`Series/${seriesId}/File`, {
        query: { pageSize, page, include_only: 'ManualLinks', include: 'XRefs' } satisfies Partial<FileListQuery>,
        signal,
      }),
    enabled: !!seriesId,
    placeholderData: keepPreviousData,
  });
}

/** Removes every link of the files: they become unrecognized again. */
export function useUnlinkFiles() {
  const invalidate = useInvalidate(fileKeys.lists, utilityKeys.seriesLists);
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      const failed = await countFailures(ids, (id) => api.delete<void>(`File/${id}/Link`, null));
      if (failed) throw new Error(`Error unlinking ${plural(failed, 'file')}!`);
    },
    onSettled: () => void invalidate(),
  });
}

/** A file with its links, media info, absolute paths and AniDB data, for the File Search details panel. */
export function useFileDetails(fileId: number | null) {
  return useQuery({
    queryKey: utilityKeys.fileDetails(fileId ?? 0),
    queryFn: ({ signal }) =>
      api.get<FileDetails>(`File/${fileId}`, {
        query: { include: ['XRefs', 'MediaInfo', 'AbsolutePaths'], includeDataFrom: 'AniDB' } satisfies FileDetailsQuery,
        signal,
      }),
    enabled: !!fileId,
  });
}

export function useSeriesById(seriesId: number | null) {
  return useQuery({
    queryKey: utilityKeys.series(seriesId ?? 0),
    queryFn: ({ signal }) => api.get<Series>(`Series/${seriesId}`, { signal }),
    enabled: !!seriesId,
  });
}

/** A Shoko episode (for the File Search details: its name). */
export function useEpisodeById(episodeId: number | null) {
  return useQuery({
    queryKey: utilityKeys.episode(episodeId ?? 0),
    queryFn: ({ signal }) => api.get<Episode>(`Episode/${episodeId}`, { signal }),
    enabled: !!episodeId,
  });
}
