import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  AnidbRefreshQuery,
  Episode,
  EpisodeFilterQuery,
  EpisodeSetHiddenQuery,
  Group,
  IncludeOnlyFilter,
  ListResult,
  NextUpEpisodeQuery,
  RelatedAnime,
  Role,
  Series,
  SeriesEpisodesQuery,
  SeriesEpisodesWatchedQuery,
  SeriesFileSummary,
  SeriesFileSummaryQuery,
  SeriesImages,
  SeriesPreferredImageBody,
  SeriesQuery,
  SeriesTagsQuery,
  SeriesUserTagIdsBody,
  Tag,
  UserTagBody,
  UserTagListQuery,
  VoteBody,
  WebUISeriesExtra,
  WebUISeriesOverview,
} from '@shoko-ts/contract';
import { PREFETCHED_FRESH_MS } from './fresh';
import { api } from './client';
import { useInvalidate } from './invalidate';
import { groupKeys, groupQuery } from './collection';

export const EPISODE_PAGE_SIZE = 26;

/** The Episodes tab's filters, as its URL keeps them. */
export interface EpisodeFilters {
  /** The console's type group: Normal, Special, Other, Credits or Misc. */
  type: string;
  includeMissing: IncludeOnlyFilter;
  includeWatched: IncludeOnlyFilter;
  includeHidden: IncludeOnlyFilter;
  includeUnaired: IncludeOnlyFilter;
  search: string;
}

/** The console's episode type groups and the API episode types each stands for. */
export const EPISODE_TYPE_GROUPS: Record<string, string[]> = {
  Normal: ['Episode'],
  Special: ['Special'],
  Other: ['Other'],
  Credits: ['Credits'],
  Misc: ['Unknown', 'Trailer', 'Parody'],
};

/** The query of Series/{id}/Episode and of the mark-filtered-watched call for a set of filters. */
export function episodeFilterQuery(filters: EpisodeFilters) {
  return {
    type: EPISODE_TYPE_GROUPS[filters.type] ?? EPISODE_TYPE_GROUPS.Normal,
    includeMissing: filters.includeMissing,
    includeWatched: filters.includeWatched,
    includeHidden: filters.includeHidden,
    includeUnaired: filters.includeUnaired,
    search: filters.search || undefined,
  } satisfies Partial<EpisodeFilterQuery>;
}

export const seriesKeys = {
  all: ['series'] as const,
  one: (id: number) => ['series', id] as const,
  detail: (id: number) => ['series', id, 'detail'] as const,
  extra: (id: number) => ['series', id, 'extra'] as const,
  overview: (id: number) => ['series', id, 'overview'] as const,
  episodes: (id: number) => ['series', id, 'episodes'] as const,
  episodeList: (id: number, filters: EpisodeFilters) => ['series', id, 'episodes', filters] as const,
  nextUp: (id: number) => ['series', id, 'episodes', 'next-up'] as const,
  related: (id: number) => ['series', id, 'related'] as const,
  similar: (id: number) => ['series', id, 'similar'] as const,
  cast: (id: number) => ['series', id, 'cast'] as const,
  tags: (id: number) => ['series', id, 'tags'] as const,
  images: (id: number) => ['series', id, 'images'] as const,
  files: (id: number) => ['series', id, 'file-summary'] as const,
  userTags: ['tags', 'user'] as const,
};

export const seriesQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<Series>(`Series/${id}`, { query: { includeDataFrom: ['AniDB', 'TMDB'] } satisfies Partial<SeriesQuery>, signal }),
    retry: false,
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useSeries(id: number) {
  return useQuery(seriesQuery(id));
}

/**
 * The series page's panels beside the series (the header's extras, tags and group, the Overview tab's shelves) in one
 * call, WebUI/Series/{id}/Overview: each answer is put under the query of its own route, which the panels read.
 */
export const seriesOverviewQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.overview(id),
    queryFn: async ({ signal, client }) => {
      const overview = await api.get<WebUISeriesOverview>(`WebUI/Series/${id}/Overview`, { signal });
      client.setQueryData(seriesKeys.extra(id), overview.Extra);
      client.setQueryData(seriesKeys.tags(id), overview.Tags);
      client.setQueryData(seriesKeys.nextUp(id), overview.NextUpEpisode);
      client.setQueryData(seriesKeys.related(id), overview.Related);
      client.setQueryData(seriesKeys.similar(id), overview.Similar);
      client.setQueryData(seriesKeys.cast(id), overview.Cast);
      if (overview.Group) client.setQueryData(groupQuery(overview.Group.IDs.ID).queryKey, overview.Group);
      return overview;
    },
    staleTime: PREFETCHED_FRESH_MS,
  });

/**
 * A panel's own request, unless the series' combined call is on its way: then the panel waits for that answer instead
 * of asking again (`pick` gives undefined for a panel the answer lacks, which is then asked for itself).
 */
async function panelOf<T>(
  client: QueryClient,
  seriesId: number,
  pick: (overview: WebUISeriesOverview) => T | undefined,
  own: () => Promise<T>,
): Promise<T> {
  if (client.getQueryState(seriesKeys.overview(seriesId))?.fetchStatus === 'fetching') {
    const overview = await client.fetchQuery(seriesOverviewQuery(seriesId)).catch(() => null);
    const panel = overview ? pick(overview) : undefined;
    if (panel !== undefined) return panel;
  }
  return own();
}

export const seriesExtraQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.extra(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.Extra,
        () => api.get<WebUISeriesExtra>(`WebUI/Series/${id}`, { signal }),
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useSeriesExtra(id: number) {
  return useQuery(seriesExtraQuery(id));
}

const includeValue = (raw: string | null, fallback: IncludeOnlyFilter): IncludeOnlyFilter =>
  raw === 'true' || raw === 'false' || raw === 'only' ? raw : fallback;

/** The Episodes tab's filters read from its URL (defaults for what the URL leaves out). */
export function episodeFiltersOf(params: URLSearchParams): EpisodeFilters {
  const type = params.get('type');
  return {
    type: type && EPISODE_TYPE_GROUPS[type] ? type : 'Normal',
    includeMissing: includeValue(params.get('includeMissing'), 'false'),
    includeWatched: includeValue(params.get('includeWatched'), 'true'),
    includeHidden: includeValue(params.get('includeHidden'), 'false'),
    includeUnaired: includeValue(params.get('includeUnaired'), 'false'),
    search: params.get('search') ?? '',
  };
}

/** The series' episodes under the tab's filters, loaded 26 at a time (the tab, and the route's prefetch). */
export const seriesEpisodesQuery = (id: number, filters: EpisodeFilters) =>
  infiniteQueryOptions({
    queryKey: seriesKeys.episodeList(id, filters),
    queryFn: ({ pageParam, signal }) =>
      api.get<ListResult<Episode>>(`Series/${id}/Episode`, {
        query: {
          ...episodeFilterQuery(filters),
          pageSize: EPISODE_PAGE_SIZE,
          page: pageParam,
          includeDataFrom: 'AniDB',
        } satisfies Partial<SeriesEpisodesQuery>,
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * EPISODE_PAGE_SIZE < last.Total ? pages.length + 1 : undefined),
    staleTime: PREFETCHED_FRESH_MS,
  });

/** The series' episodes under the tab's filters, loaded 26 at a time as the list scrolls. */
export function useSeriesEpisodes(id: number, filters: EpisodeFilters) {
  return useInfiniteQuery({ ...seriesEpisodesQuery(id, filters), placeholderData: keepPreviousData });
}

/** The next episode to watch; null when every available episode is watched (204). */
export const nextUpEpisodeQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.nextUp(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.NextUpEpisode,
        async () =>
          (await api.get<Episode | undefined>(`Series/${id}/NextUpEpisode`, {
            query: { includeDataFrom: 'AniDB' } satisfies Partial<NextUpEpisodeQuery>,
            signal,
          })) ?? null,
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useNextUpEpisode(id: number) {
  return useQuery(nextUpEpisodeQuery(id));
}

export const relatedAnimeQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.related(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.Related,
        () => api.get<RelatedAnime[]>(`Series/${id}/AniDB/Related`, { signal }),
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useRelatedAnime(id: number) {
  return useQuery(relatedAnimeQuery(id));
}

export const similarAnimeQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.similar(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.Similar,
        () => api.get<RelatedAnime[]>(`Series/${id}/AniDB/Similar`, { signal }),
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useSimilarAnime(id: number) {
  return useQuery(similarAnimeQuery(id));
}

export const seriesCastQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.cast(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.Cast,
        () => api.get<Role[]>(`Series/${id}/Cast`, { signal }),
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useSeriesCast(id: number) {
  return useQuery(seriesCastQuery(id));
}

/** Every tag of the series, user tags first, spoilers and unverified ones included (the tabs filter them). */
export const seriesTagsQuery = (id: number) =>
  queryOptions({
    queryKey: seriesKeys.tags(id),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        id,
        (o) => o.Tags,
        () => api.get<Tag[]>(`Series/${id}/Tags`, { query: { onlyVerified: false } satisfies Partial<SeriesTagsQuery>, signal }),
      ),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useSeriesTags(id: number) {
  return useQuery(seriesTagsQuery(id));
}

/** The series' group (the header's breadcrumb): Group/{id}, or the series' combined call's while that is on its way. */
export function useSeriesGroup(seriesId: number, groupId: number) {
  return useQuery({
    ...groupQuery(groupId),
    queryFn: ({ signal, client }) =>
      panelOf(
        client,
        seriesId,
        (o) => (o.Group?.IDs.ID === groupId ? o.Group : undefined),
        () => api.get<Group>(`Group/${groupId}`, { signal }),
      ),
  });
}

export function useSeriesImages(id: number) {
  return useQuery({ queryKey: seriesKeys.images(id), queryFn: ({ signal }) => api.get<SeriesImages>(`Series/${id}/Images`, { signal }) });
}

export function useSeriesFileSummary(id: number) {
  return useQuery({
    queryKey: seriesKeys.files(id),
    queryFn: ({ signal }) =>
      api.get<SeriesFileSummary>(`WebUI/Series/${id}/FileSummary`, {
        query: {
          groupBy: ['GroupName', 'FileVersion', 'FileSource', 'FileLocation', 'AudioLanguages', 'SubtitleLanguages'],
          // Which files sit in an offline import folder (issue 49).
          includeLocationDetails: true,
        } satisfies Partial<SeriesFileSummaryQuery>,
        signal,
      }),
  });
}

export function useUserTags(enabled: boolean) {
  return useQuery({
    queryKey: seriesKeys.userTags,
    queryFn: ({ signal }) => api.get<ListResult<Tag>>('Tag/User', { query: { pageSize: 0 } satisfies Partial<UserTagListQuery>, signal }),
    enabled,
  });
}

/** Invalidates what a change of watch state or episode visibility touches: episodes, next up, the series' sizes, groups. */
function useInvalidateWatchState(seriesId: number) {
  return useInvalidate(seriesKeys.episodes(seriesId), seriesKeys.detail(seriesId), seriesKeys.files(seriesId), groupKeys.all);
}

/** Marks episodes watched or unwatched, one call each (the API has no batch form by id). */
export function useSetEpisodesWatched(seriesId: number) {
  const invalidate = useInvalidateWatchState(seriesId);
  return useMutation({
    mutationFn: ({ episodeIds, watched }: { episodeIds: number[]; watched: boolean }) =>
      Promise.all(episodeIds.map((id) => api.post(`Episode/${id}/Watched/${watched}`))),
    onSettled: invalidate,
  });
}

/** Marks every episode matching the filters watched (or unwatched). */
export function useSetFilteredWatched(seriesId: number) {
  const invalidate = useInvalidateWatchState(seriesId);
  return useMutation({
    mutationFn: ({ filters, watched }: { filters: EpisodeFilters; watched: boolean }) =>
      api.post(`Series/${seriesId}/Episode/Watched`, undefined, {
        query: { ...episodeFilterQuery(filters), value: watched } satisfies Partial<SeriesEpisodesWatchedQuery>,
      }),
    onSuccess: invalidate,
  });
}

export function useSetEpisodeHidden(seriesId: number) {
  const invalidate = useInvalidateWatchState(seriesId);
  return useMutation({
    mutationFn: ({ episodeId, hidden }: { episodeId: number; hidden: boolean }) =>
      api.post(`Episode/${episodeId}/SetHidden`, undefined, { query: { value: hidden } satisfies Partial<EpisodeSetHiddenQuery> }),
    onSuccess: invalidate,
  });
}

/** The viewer's series rating, 1–10 stars. */
export function useVoteSeries(seriesId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: number) => api.post(`Series/${seriesId}/Vote`, { Value: value, MaxValue: 10 } satisfies VoteBody),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seriesKeys.detail(seriesId) }),
  });
}

/** The viewer's episode rating, 1–10 stars. */
export function useVoteEpisode(seriesId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ episodeId, value }: { episodeId: number; value: number }) =>
      api.post(`Episode/${episodeId}/Vote`, { Value: value, MaxValue: 10 } satisfies VoteBody),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seriesKeys.episodes(seriesId) }),
  });
}

/** Queues a forced AniDB refresh of the series (with its characters and staff). */
export function useRefreshSeriesAniDB(seriesId: number) {
  return useMutation({
    mutationFn: () =>
      api.post<boolean>(`Series/${seriesId}/AniDB/Refresh`, undefined, {
        query: { force: true, downloadRelations: false } satisfies Partial<AnidbRefreshQuery>,
      }),
  });
}

export function useUnsetPreferredImage(seriesId: number) {
  const invalidate = useInvalidate(seriesKeys.images(seriesId), seriesKeys.detail(seriesId));
  return useMutation({
    mutationFn: (type: string) => api.delete(`Series/${seriesId}/Images/${type}`),
    onSuccess: invalidate,
  });
}

export function useSetPreferredImage(seriesId: number) {
  const invalidate = useInvalidate(seriesKeys.images(seriesId), seriesKeys.detail(seriesId), groupKeys.all);
  return useMutation({
    mutationFn: ({ type, id, source }: { type: string; id: number; source: string }) =>
      api.put(`Series/${seriesId}/Images/${type}`, { ID: id, Source: source } satisfies SeriesPreferredImageBody),
    onSuccess: invalidate,
  });
}

function useInvalidateTags(seriesId: number) {
  return useInvalidate(seriesKeys.tags(seriesId), seriesKeys.userTags);
}

export function useAddSeriesUserTags(seriesId: number) {
  const invalidate = useInvalidateTags(seriesId);
  return useMutation({
    mutationFn: (ids: number[]) => api.post(`Series/${seriesId}/Tags/User`, { IDs: ids } satisfies SeriesUserTagIdsBody),
    onSuccess: invalidate,
  });
}

export function useRemoveSeriesUserTags(seriesId: number) {
  const invalidate = useInvalidateTags(seriesId);
  return useMutation({
    mutationFn: (ids: number[]) => api.delete(`Series/${seriesId}/Tags/User`, { IDs: ids } satisfies SeriesUserTagIdsBody),
    onSuccess: invalidate,
  });
}

/** Creates a user tag; the caller adds it to the series. */
export function useCreateUserTag(seriesId: number) {
  const invalidate = useInvalidateTags(seriesId);
  return useMutation({
    mutationFn: ({ name, description }: { name: string; description: string | null }) =>
      api.post<Tag>('Tag/User', { name, description } satisfies UserTagBody),
    onSuccess: invalidate,
    meta: { inlineErrors: true },
  });
}

export function useUpdateUserTag(seriesId: number) {
  const invalidate = useInvalidateTags(seriesId);
  return useMutation({
    mutationFn: ({ id, name, description }: { id: number; name: string; description: string | null }) =>
      api.put<Tag>(`Tag/User/${id}`, { name, description } satisfies UserTagBody),
    onSuccess: invalidate,
    meta: { inlineErrors: true },
  });
}
