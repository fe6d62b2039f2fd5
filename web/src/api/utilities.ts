import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnidbEpisode, Episode, File, ListResult, MediaInfo, Series } from '@shoko-ts/contract';
import { api } from './client';
import { fileKeys } from './keys';
import { countFailures } from './files';

/** An AniDB search hit or stored AniDB anime (contract collection.md §2.5); title-dump-only entries have Type "Unknown". */
export interface AnidbAnimeHit {
  ID: number;
  ShokoID: number | null;
  Type: string;
  Title: string;
  EpisodeCount: number | null;
  AirDate?: string | null;
}

/** One entry of `File.SeriesIDs` (contract files.md §1.7). */
export interface FileXRef {
  SeriesID: { ID: number | null; AniDB: number };
  EpisodeIDs: Array<{ ID: number | null; AniDB: number; Source: 'AniDB' | 'User' }>;
}

/** `File.AniDB` (contract files.md §1.5), the parts the console shows. */
export interface FileAniDB {
  ID: number;
  OriginalFileName: string;
  ReleaseGroup: { Name: string | null; ShortName: string | null };
  Source: string;
  Version: number;
}

export type FileDetails = Omit<File, 'SeriesIDs' | 'AniDB' | 'MediaInfo'> & {
  SeriesIDs?: FileXRef[];
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
      api.get<ListResult<Series>>(`Series/${kind}`, { query: { pageSize, page, search: search || undefined }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** AniDB title search in the path form the console uses (contract S2); nothing is asked for an empty text. */
export function useAnidbSearch(text: string) {
  return useQuery({
    queryKey: utilityKeys.anidbSearch(text),
    queryFn: ({ signal }) => api.get<ListResult<AnidbAnimeHit>>(`Series/AniDB/Search/${encodeURIComponent(text)}`, { signal }),
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
        query: { pageSize: 0, includeMissing: true, includeUnaired: true },
        signal,
      }),
    enabled: !!anidbId,
  });
}

/** Downloads an anime (and with `createSeriesEntry` creates its series) right away; the server answers true on success. */
export function refreshAnime(anidbId: number, query: { force?: boolean; createSeriesEntry?: boolean }) {
  return api.post<boolean>(`Series/AniDB/${anidbId}/Refresh`, undefined, { query: { ...query, immediate: true } });
}

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
  return api.delete<void>(`Series/${seriesId}`, undefined, { query: { deleteFiles: false } });
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
        query: { pageSize, page, include_only: 'ManualLinks', include: 'XRefs' },
        signal,
      }),
    enabled: !!seriesId,
    placeholderData: keepPreviousData,
  });
}

/** Removes every link of the files: they become unrecognized again. */
export function useUnlinkFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      const failed = await countFailures(ids, (id) => api.delete<void>(`File/${id}/Link`, null));
      if (failed) throw new Error(`Error unlinking ${plural(failed, 'file')}!`);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: fileKeys.lists });
      void queryClient.invalidateQueries({ queryKey: utilityKeys.seriesLists });
    },
  });
}

/** A file with its links, media info, absolute paths and AniDB data, for the File Search details panel. */
export function useFileDetails(fileId: number | null) {
  return useQuery({
    queryKey: utilityKeys.fileDetails(fileId ?? 0),
    queryFn: ({ signal }) =>
      api.get<FileDetails>(`File/${fileId}`, {
        query: { include: ['XRefs', 'MediaInfo', 'AbsolutePaths'], includeDataFrom: 'AniDB' },
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
