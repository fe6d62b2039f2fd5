import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CollectionPatchBody,
  CreateOrUpdateFilterBody,
  CreateOrUpdateGroupBody,
  FilterGroupsQuery,
  Group,
  GroupIDParams,
  Series,
  SeriesParams,
  WebUIGroupExtra,
  WebUIGroupViewBody,
  ListResult,
} from '@shoko-ts/contract';
import { api } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';
import { COLLECTION_PAGE_SIZE, filterKeys } from './filters';

export const groupKeys = {
  all: ['groups'] as const,
  one: (id: number) => ['groups', 'one', id] as const,
  series: (id: number) => ['groups', 'series', id] as const,
  views: ['groups', 'view'] as const,
  view: (ids: number[]) => ['groups', 'view', ids] as const,
};

export const groupQuery = (id: GroupIDParams['groupID']) =>
  queryOptions({
    queryKey: groupKeys.one(id),
    queryFn: ({ signal }) => api.get<Group>(`Group/${id}`, { signal }),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useGroup(id: GroupIDParams['groupID'] | null) {
  return useQuery({ ...groupQuery(id ?? 0), enabled: id !== null });
}

export function useGroupSeries(id: GroupIDParams['groupID'] | null) {
  return useQuery({
    queryKey: groupKeys.series(id ?? 0),
    queryFn: ({ signal }) => api.get<Series[]>(`Group/${id}/Series`, { signal }),
    enabled: id !== null,
  });
}

/** How close to a page's edge (in entries, about two rows of posters) the list asks for the page beyond it. */
export const PAGE_EDGE = 12;

/**
 * The 1-based pages of `pageSize` entries that hold entries `first` to `last` (0-based, inclusive), and the page
 * beyond either end when it is within PAGE_EDGE entries, so a list scrolled in either direction finds its next entries
 * loaded while a page opened at the top asks for its first page alone; always page 1, whose answer tells how many
 * entries there are.
 */
export function pagesInView(first: number, last: number, total: number | undefined, pageSize = COLLECTION_PAGE_SIZE): number[] {
  const lastPage = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  const from = Math.max(1, Math.floor(Math.max(0, first - PAGE_EDGE) / pageSize) + 1);
  const to = Math.min(lastPage, Math.floor(Math.max(0, last + PAGE_EDGE) / pageSize) + 1);
  const pages = new Set([1]);
  for (let page = from; page <= to; page++) pages.add(page);
  return [...pages].sort((a, b) => a - b);
}

/**
 * The collection's groups under a filter, page by page as they come into view (`pages`, from pagesInView): a list
 * scrolled to its end asks for the last page only, not for every page before it.
 */
/** One page of the collection's groups under a filter (the pages of usePreviewGroupPages, and the route's prefetch). */
export const groupPageQuery = (body: CreateOrUpdateFilterBody, randomImages: boolean, page: number) =>
  queryOptions({
    queryKey: [...filterKeys.groups(body), 'page', page, randomImages] as const,
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.post<ListResult<Group>>('Filter/Preview/Group', body, {
        query: { pageSize: COLLECTION_PAGE_SIZE, page, randomImages } satisfies Partial<FilterGroupsQuery>,
        signal,
      }),
  });

export function usePreviewGroupPages(body: CreateOrUpdateFilterBody, randomImages: boolean, pages: number[]) {
  return useQueries({
    queries: pages.map((page) => groupPageQuery(body, randomImages, page)),
    combine: (results) => {
      const first = results[0];
      const byPage = new Map<number, Group[]>();
      results.forEach((result, i) => result.data && byPage.set(pages[i]!, result.data.List));
      return {
        total: first?.data?.Total,
        isPending: !!first?.isPending,
        error: first?.error ?? null,
        /** The group at a 0-based position, or undefined while its page is on its way. */
        at: (index: number) => byPage.get(Math.floor(index / COLLECTION_PAGE_SIZE) + 1)?.[index % COLLECTION_PAGE_SIZE],
        loaded: [...byPage.entries()].sort(([a], [b]) => a - b).flatMap(([, list]) => list),
      };
    },
  });
}

/** List-view extras (type, rating, top tags) for a page of groups. */
export function useGroupViews(ids: WebUIGroupViewBody['GroupIDs'], enabled: boolean) {
  return useQuery({
    queryKey: groupKeys.view(ids),
    queryFn: ({ signal }) =>
      api.post<WebUIGroupExtra[]>('WebUI/GroupView', { GroupIDs: ids, TagFilter: 128, TagLimit: 20 } satisfies WebUIGroupViewBody, {
        signal,
      }),
    enabled: enabled && ids.length > 0,
  });
}

function useInvalidateCollection() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: groupKeys.all }),
      queryClient.invalidateQueries({ queryKey: filterKeys.previews }),
    ]);
}

/** Renames a group; the name becomes custom (contract §3.6). */
export function useRenameGroup() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: ({ id, name }: { id: GroupIDParams['groupID']; name: string }) =>
      api.patch<Group>(`Group/${id}`, [
        { op: 'replace', path: 'Name', value: name },
        { op: 'replace', path: 'HasCustomName', value: 'true' },
      ] satisfies CollectionPatchBody),
    onSuccess: invalidate,
  });
}

export function useSetPreferredSeries() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: ({ id, seriesId }: { id: GroupIDParams['groupID']; seriesId: SeriesParams['seriesID'] }) =>
      api.patch<Group>(`Group/${id}`, [{ op: 'replace', path: 'PreferredSeriesID', value: seriesId }] satisfies CollectionPatchBody),
    onSuccess: invalidate,
  });
}

/** Moves a series out into a new group of its own. */
export function useMoveSeriesToNewGroup() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: (seriesId: SeriesParams['seriesID']) =>
      api.post<Group>('Group', { PreferredSeriesID: seriesId, SeriesIDs: [seriesId] } satisfies CreateOrUpdateGroupBody),
    onSuccess: invalidate,
  });
}
