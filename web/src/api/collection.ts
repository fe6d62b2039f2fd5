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
import { useInvalidate } from './invalidate';
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

/** The pages a list needs now (`visible`: in view, and page 1, whose answer tells the total) and next (`nearby`). */
export interface PagesInView {
  visible: number[];
  nearby: number[];
}

/**
 * The 1-based pages of `pageSize` entries that hold entries `first` to `last` (0-based, inclusive), always with page
 * 1, the page above them and the two below: a list scrolled a viewport or more in either direction then finds its
 * next entries loaded. The nearby pages are asked for only once the visible ones have arrived (usePreviewGroupPages), so they never
 * delay what is on screen.
 */
export function pagesInView(first: number, last: number, total: number | undefined, pageSize = COLLECTION_PAGE_SIZE): PagesInView {
  const lastPage = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  const from = Math.min(lastPage, Math.floor(Math.max(0, first) / pageSize) + 1);
  const to = Math.min(lastPage, Math.floor(Math.max(0, last) / pageSize) + 1);
  const visible = new Set([1]);
  for (let page = from; page <= to; page++) visible.add(page);
  // Two pages below: a page of 50 posters is about four viewports, too little time to fetch the next one in a fast scroll.
  const nearby = [from - 1, to + 1, to + 2].filter((page) => page >= 1 && page <= lastPage && !visible.has(page));
  return { visible: [...visible].sort((a, b) => a - b), nearby };
}

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

/**
 * The collection's groups under a filter, page by page as they come into view (`pages`, from pagesInView): a list
 * scrolled to its end asks for the last pages only, not for every page before it.
 */
export function usePreviewGroupPages(body: CreateOrUpdateFilterBody, randomImages: boolean, pages: PagesInView) {
  const queryClient = useQueryClient();
  // A page asked for before the settings came (the route's loader, preferred posters) is shown until its random one is.
  const otherImages = (page: number) => queryClient.getQueryData(groupPageQuery(body, !randomImages, page).queryKey);
  const visible = useQueries({
    queries: pages.visible.map((page) => ({ ...groupPageQuery(body, randomImages, page), placeholderData: () => otherImages(page) })),
  });
  const visibleLoaded = visible.every((result) => result.data !== undefined);
  const nearby = useQueries({
    queries: pages.nearby.map((page) => ({ ...groupPageQuery(body, randomImages, page), enabled: visibleLoaded })),
  });
  const numbers = [...pages.visible, ...pages.nearby];
  const results = [...visible, ...nearby];
  const byPage = new Map<number, Group[]>();
  results.forEach((result, i) => result.data && byPage.set(numbers[i]!, result.data.List));
  const first = visible[0];
  return {
    total: first?.data?.Total,
    isPending: !!first?.isPending,
    error: first?.error ?? null,
    /** The group at a 0-based position, or undefined while its page is on its way. */
    at: (index: number) => byPage.get(Math.floor(index / COLLECTION_PAGE_SIZE) + 1)?.[index % COLLECTION_PAGE_SIZE],
    loaded: [...byPage.entries()].sort(([a], [b]) => a - b).flatMap(([, list]) => list),
  };
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
  return useInvalidate(groupKeys.all, filterKeys.previews);
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
