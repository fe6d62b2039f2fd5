import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type {
  Episode,
  ListResult,
  SeriesEpisodesQuery,
  TmdbAutoEpisodeLinksQuery,
  TmdbAutoMatchResult,
  TmdbEpisode,
  TmdbEpisodeBulkBody,
  TmdbEpisodeCrossReference,
  TmdbEpisodeLinksQuery,
  TmdbLinkMovieBody,
  TmdbMovieCrossReference,
  TmdbOrderingInformation,
  TmdbOverrideEpisodeMappingBody,
  TmdbRefreshMovieBody,
  TmdbRefreshShowBody,
  TmdbRemoteSearchMovie,
  TmdbRemoteSearchShow,
  TmdbSearchQuery,
  TmdbSetPreferredOrderingBody,
  TmdbShow,
  TmdbShowEpisodesQuery,
  TmdbUnlinkBody,
  TmdbUnlinkMovieBody,
} from '@shoko-ts/contract';
import { api } from './client';
import { useInvalidate } from './invalidate';
import { seriesKeys } from './series';

export type TmdbLinkType = 'Show' | 'Movie';

/** The linking page loads the AniDB episodes 50 at a time; TMDB title searches show 25 results, episode searches 30. */
export const LINKING_EPISODE_PAGE_SIZE = 50;
export const TMDB_TITLE_SEARCH_SIZE = 25;
export const TMDB_EPISODE_SEARCH_SIZE = 30;

export const tmdbKeys = {
  all: ['tmdb'] as const,
  show: (id: number) => ['tmdb', 'show', id] as const,
  orderings: (id: number) => ['tmdb', 'show', id, 'orderings'] as const,
  showEpisodes: (id: number, search: string) => ['tmdb', 'show', id, 'episodes', search] as const,
  onlineMovie: (id: number) => ['tmdb', 'movie', id, 'online'] as const,
  episodesById: (ids: number[]) => ['tmdb', 'episodes', ids] as const,
  search: (type: TmdbLinkType, query: string, includeRestricted: boolean) => ['tmdb', 'search', type, query, includeRestricted] as const,
  lookup: (type: TmdbLinkType, id: number) => ['tmdb', 'lookup', type, id] as const,
  autoSearch: (seriesId: number) => ['series', seriesId, 'tmdb', 'auto-search'] as const,
  links: (seriesId: number, type: TmdbLinkType, id: number, linked: boolean) =>
    ['series', seriesId, 'tmdb', 'links', type, id, linked] as const,
  anidbEpisodes: (seriesId: number) => ['series', seriesId, 'tmdb', 'anidb-episodes'] as const,
};

/** A search result of either kind, as the link-select panel lists it. */
export interface TmdbCandidate {
  type: TmdbLinkType;
  id: number;
  title: string;
  date: string | null;
}

const showCandidate = (show: TmdbRemoteSearchShow): TmdbCandidate => ({
  type: 'Show',
  id: show.ID,
  title: show.Title,
  date: show.FirstAiredAt,
});
const movieCandidate = (movie: TmdbRemoteSearchMovie): TmdbCandidate => ({
  type: 'Movie',
  id: movie.ID,
  title: movie.Title,
  date: movie.ReleasedAt,
});

/**
 * The link-select panel's results: with no text, what the automatic matcher would pick; a number is looked up as an id
 * (errors ignored) besides the title search.
 */
export function useTmdbCandidates(seriesId: number, type: TmdbLinkType, text: string, includeRestricted: boolean) {
  const query = text.trim();
  return useQuery({
    queryKey: [...tmdbKeys.search(type, query, includeRestricted), seriesId],
    queryFn: async ({ signal }): Promise<TmdbCandidate[]> => {
      if (!query) {
        const matches = await api.get<TmdbAutoMatchResult[]>(`Series/${seriesId}/TMDB/Action/AutoSearch`, { signal });
        return matches.flatMap((match) =>
          match.IsMovie ? (match.Movie ? [movieCandidate(match.Movie)] : []) : match.Show ? [showCandidate(match.Show)] : [],
        );
      }
      const path = type === 'Show' ? 'Tmdb/Show/Online' : 'Tmdb/Movie/Online';
      const byId = /^\d+$/.test(query)
        ? api.get<TmdbRemoteSearchShow | TmdbRemoteSearchMovie>(`${path}/${query}`, { signal }).catch(() => null)
        : Promise.resolve(null);
      const found = await api.get<ListResult<TmdbRemoteSearchShow | TmdbRemoteSearchMovie>>(`${path}/Search`, {
        query: { includeRestricted, pageSize: TMDB_TITLE_SEARCH_SIZE, query } satisfies Partial<TmdbSearchQuery>,
        signal,
      });
      const single = await byId;
      const all = single ? [single, ...found.List.filter((item) => item.ID !== single.ID)] : found.List;
      return all.map((item) =>
        type === 'Show' ? showCandidate(item as TmdbRemoteSearchShow) : movieCandidate(item as TmdbRemoteSearchMovie),
      );
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Stores the picked show or movie locally (skipped when already there) so its episodes can be linked. */
export function useFetchTmdbEntry() {
  return useMutation({
    mutationFn: ({ type, id }: { type: TmdbLinkType; id: number }) =>
      type === 'Show'
        ? api.post(`Tmdb/Show/${id}/Action/Refresh`, { Immediate: true, QuickRefresh: true } satisfies Partial<TmdbRefreshShowBody>)
        : api.post(`Tmdb/Movie/${id}/Action/Refresh`, { Immediate: true, SkipIfExists: true } satisfies Partial<TmdbRefreshMovieBody>),
  });
}

export function useTmdbShow(id: number, enabled = true) {
  return useQuery({
    queryKey: tmdbKeys.show(id),
    queryFn: ({ signal }) => api.get<TmdbShow>(`Tmdb/Show/${id}`, { signal }),
    enabled: enabled && id > 0,
    retry: false,
  });
}

export function useTmdbOnlineMovie(id: number, enabled = true) {
  return useQuery({
    queryKey: tmdbKeys.onlineMovie(id),
    queryFn: ({ signal }) => api.get<TmdbRemoteSearchMovie>(`Tmdb/Movie/Online/${id}`, { signal }),
    enabled: enabled && id > 0,
    retry: false,
  });
}

/** Every AniDB episode, special and other of the series, missing and unaired ones too, loaded page by page. */
export function useLinkingEpisodes(seriesId: number) {
  return useInfiniteQuery({
    queryKey: tmdbKeys.anidbEpisodes(seriesId),
    queryFn: ({ pageParam, signal }) =>
      api.get<ListResult<Episode>>(`Series/${seriesId}/Episode`, {
        query: {
          pageSize: LINKING_EPISODE_PAGE_SIZE,
          page: pageParam,
          includeDataFrom: 'AniDB',
          // IncludeOnlyFilter values are text on the wire.
          includeMissing: 'true',
          includeUnaired: 'true',
          type: ['Episode', 'Special', 'Other'],
        } satisfies Partial<SeriesEpisodesQuery>,
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * LINKING_EPISODE_PAGE_SIZE < last.Total ? pages.length + 1 : undefined),
  });
}

/** The current links of the series to the picked show or movie: stored links, or the automatic preview for a new show. */
export type LinkingLinks = { type: 'Show'; links: TmdbEpisodeCrossReference[] } | { type: 'Movie'; links: TmdbMovieCrossReference[] };

export function useLinkingLinks(seriesId: number, type: TmdbLinkType, id: number, linked: boolean, enabled: boolean) {
  return useQuery({
    queryKey: tmdbKeys.links(seriesId, type, id, linked),
    queryFn: async ({ signal }): Promise<LinkingLinks> => {
      if (type === 'Movie')
        return { type, links: await api.get<TmdbMovieCrossReference[]>(`Series/${seriesId}/TMDB/Movie/CrossReferences`, { signal }) };
      const path = `Series/${seriesId}/TMDB/Show/CrossReferences/Episode`;
      const result = linked
        ? await api.get<ListResult<TmdbEpisodeCrossReference>>(path, {
            query: { pageSize: 0 } satisfies Partial<TmdbEpisodeLinksQuery>,
            signal,
          })
        : await api.get<ListResult<TmdbEpisodeCrossReference>>(`${path}/Auto`, {
            query: { pageSize: 0, tmdbShowID: id } satisfies Partial<TmdbAutoEpisodeLinksQuery>,
            signal,
          });
      return { type, links: result.List };
    },
    enabled: enabled && id > 0,
    retry: false,
  });
}

/** TMDB episodes by id (unknown ids skipped), for the right-hand column. */
export function useTmdbEpisodesById(ids: number[]) {
  return useQuery({
    queryKey: tmdbKeys.episodesById(ids),
    queryFn: ({ signal }) => api.post<TmdbEpisode[]>('Tmdb/Episode/Bulk', { IDs: ids } satisfies TmdbEpisodeBulkBody, { signal }),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The episode picker: the show's episodes matching the search, 30 at a time. */
export function useTmdbShowEpisodes(showId: number, search: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: tmdbKeys.showEpisodes(showId, search),
    queryFn: ({ pageParam, signal }) =>
      api.get<ListResult<TmdbEpisode>>(`Tmdb/Show/${showId}/Episode`, {
        query: {
          search: search || undefined,
          pageSize: TMDB_EPISODE_SEARCH_SIZE,
          page: pageParam,
        } satisfies Partial<TmdbShowEpisodesQuery>,
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * TMDB_EPISODE_SEARCH_SIZE < last.Total ? pages.length + 1 : undefined),
    enabled: enabled && showId > 0,
    placeholderData: keepPreviousData,
  });
}

/** One staged change: the AniDB episode and what it links to (a TMDB episode id, or the movie id; 0 = no link). */
export type LinkOverrides = ReadonlyMap<number, number>;

export interface SaveLinksInput {
  type: TmdbLinkType;
  id: number;
  /** Whether the series was linked to this show before (else the save creates the link). */
  linked: boolean;
  overrides: LinkOverrides;
  /** Show mode: the episode links to the show after the overrides are applied (to see whether any remain). */
  remainingLinks: number;
}

/** The ordered calls a save makes (SPEC §4): exported for its unit test. */
export function saveLinkCalls(seriesId: number, input: SaveLinksInput): { method: 'POST' | 'DELETE'; path: string; body: unknown }[] {
  const base = `Series/${seriesId}/TMDB`;
  if (input.type === 'Movie') {
    return [...input.overrides].map(([episodeId, movieId]) =>
      movieId
        ? { method: 'POST', path: `${base}/Movie`, body: { ID: input.id, EpisodeID: episodeId } satisfies Partial<TmdbLinkMovieBody> }
        : { method: 'DELETE', path: `${base}/Movie`, body: { ID: input.id, EpisodeID: episodeId } satisfies TmdbUnlinkMovieBody },
    );
  }
  const calls: { method: 'POST' | 'DELETE'; path: string; body: unknown }[] = [];
  // TmdbAutoMatchEpisodesBody: the server binds body keys case-insensitively, so `tmdbShowID` fills TmdbShowID.
  if (!input.linked) calls.push({ method: 'POST', path: `${base}/Show/CrossReferences/Episode/Auto`, body: { tmdbShowID: input.id } });
  // A show left without a single episode link is unlinked altogether.
  if (input.linked && input.remainingLinks === 0)
    calls.push({ method: 'DELETE', path: `${base}/Show`, body: { ID: input.id } satisfies TmdbUnlinkBody });
  if (input.overrides.size) {
    const mapping = [...input.overrides].map(([anidbId, tmdbId]) => ({ AniDBID: anidbId, TmdbID: tmdbId, Replace: true }));
    calls.push({
      method: 'POST',
      path: `${base}/Show/CrossReferences/Episode`,
      body: { UnsetAll: false, Mapping: mapping } satisfies TmdbOverrideEpisodeMappingBody,
    });
  }
  return calls;
}

export function useSaveLinks(seriesId: number) {
  const invalidate = useInvalidate(seriesKeys.one(seriesId), tmdbKeys.all);
  return useMutation({
    mutationFn: async (input: SaveLinksInput) => {
      for (const call of saveLinkCalls(seriesId, input)) {
        if (call.method === 'POST') await api.post(call.path, call.body);
        else await api.delete(call.path, call.body);
      }
    },
    onSuccess: () => void invalidate(),
  });
}

export function useTmdbOrderings(showId: number, enabled: boolean) {
  return useQuery({
    queryKey: tmdbKeys.orderings(showId),
    queryFn: ({ signal }) => api.get<TmdbOrderingInformation[]>(`Tmdb/Show/${showId}/Ordering`, { signal }),
    enabled: enabled && showId > 0,
  });
}

export function useSetPreferredOrdering(showId: number) {
  const invalidate = useInvalidate(tmdbKeys.show(showId), tmdbKeys.orderings(showId), seriesKeys.all);
  return useMutation({
    mutationFn: (orderingId: string) =>
      api.post(`Tmdb/Show/${showId}/Ordering/SetPreferred`, { AlternateOrderingID: orderingId } satisfies TmdbSetPreferredOrderingBody),
    onSuccess: () => void invalidate(),
  });
}
