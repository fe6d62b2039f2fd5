import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateOrUpdateFilterBody,
  Filter,
  FilterChildrenQuery,
  FilterCondition,
  FilterExpressionHelp,
  FilterGetQuery,
  FilterGroupsQuery,
  FilterIDParams,
  FilterListQuery,
  Group,
  GroupIDParams,
  GroupSeriesQuery,
  ListResult,
  Series,
  SortingCriteria,
} from '@shoko-ts/contract';
import { api } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';

export const COLLECTION_PAGE_SIZE = 50;
export const DEFAULT_SORTING: SortingCriteria = { Type: 'Name', IsInverted: false };

export const filterKeys = {
  all: ['filters'] as const,
  presets: ['filters', 'presets'] as const,
  children: (id: number) => ['filters', 'presets', 'children', id] as const,
  preset: (id: number) => ['filters', 'presets', 'one', id] as const,
  expressions: ['filters', 'expressions'] as const,
  previews: ['filters', 'preview'] as const,
  groups: (body: CreateOrUpdateFilterBody) => ['filters', 'preview', 'groups', body] as const,
  groupSeries: (groupId: number, body: CreateOrUpdateFilterBody) => ['filters', 'preview', 'group-series', groupId, body] as const,
};

/** The search box as a condition (contract §7.9): names contain the text; numeric text also matches an AniDB id. */
export function searchCondition(query: string): FilterCondition | null {
  const text = query.trim();
  if (!text) return null;
  const names: FilterCondition = { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: text };
  if (!/^\d+$/.test(text)) return names;
  return { Type: 'Or', Left: names, Right: { Type: 'AnyEquals', Left: { Type: 'AniDBIDsSelector' }, Parameter: text } };
}

/** Conditions folded right-nested into And nodes: [a, b, c] → And(a, And(b, c)). */
export function andAll(conditions: Array<FilterCondition | null | undefined>): FilterCondition | null {
  const list = conditions.filter((c): c is FilterCondition => !!c);
  if (!list.length) return null;
  return list.reduceRight((right, left) => ({ Type: 'And', Left: left, Right: right }));
}

/** The Preview body for browsing: `{}` when there is nothing to filter, else a series-level filter. */
export function previewBody(
  conditions: Array<FilterCondition | null | undefined>,
  sorting?: SortingCriteria | null,
): CreateOrUpdateFilterBody {
  const expression = andAll(conditions);
  if (!expression && !sorting) return {};
  return { ApplyAtSeriesLevel: true, ...(expression ? { Expression: expression } : {}), Sorting: sorting ?? DEFAULT_SORTING };
}

export function nextPage(lastPage: ListResult<unknown>, pages: number, pageSize = COLLECTION_PAGE_SIZE): number | undefined {
  return pages * pageSize < lastPage.Total ? pages + 1 : undefined;
}

/** Top-level groups under a live filter, page by page (50 per page). */
export function usePreviewGroups(body: CreateOrUpdateFilterBody, randomImages = false) {
  return useInfiniteQuery({
    queryKey: filterKeys.groups(body),
    queryFn: ({ pageParam, signal }) =>
      api.post<ListResult<Group>>('Filter/Preview/Group', body, {
        query: { pageSize: COLLECTION_PAGE_SIZE, page: pageParam, randomImages } satisfies Partial<FilterGroupsQuery>,
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => nextPage(lastPage, pages.length),
    placeholderData: keepPreviousData,
  });
}

/** The series of one group under a live filter (recursive, with AniDB and TMDB data): the group page, and its route's prefetch. */
export const groupSeriesQuery = (groupId: GroupIDParams['groupID'], body: CreateOrUpdateFilterBody, randomImages = false) =>
  queryOptions({
    queryKey: filterKeys.groupSeries(groupId, body),
    queryFn: ({ signal }) =>
      api.post<Series[]>(`Filter/Preview/Group/${groupId}/Series`, body, {
        query: {
          randomImages,
          includeDataFrom: ['AniDB', 'TMDB'],
          recursive: true,
          includeMissing: true,
        } satisfies Partial<GroupSeriesQuery>,
        signal,
      }),
    staleTime: PREFETCHED_FRESH_MS,
  });

export function usePreviewGroupSeries(groupId: GroupIDParams['groupID'], body: CreateOrUpdateFilterBody, randomImages = false) {
  return useQuery({ ...groupSeriesQuery(groupId, body, randomImages), placeholderData: keepPreviousData });
}

/** The saved filters, read only while `enabled` (the list counts every preset's groups: not a cost of each page visit). */
export function usePresets(enabled = true) {
  return useQuery({
    queryKey: filterKeys.presets,
    queryFn: ({ signal }) =>
      api.get<ListResult<Filter>>('Filter', { query: { includeEmpty: true, pageSize: 0 } satisfies Partial<FilterListQuery>, signal }),
    enabled,
  });
}

export function usePresetChildren(id: FilterIDParams['filterID'], enabled: boolean) {
  return useQuery({
    queryKey: filterKeys.children(id),
    queryFn: ({ signal }) =>
      api.get<ListResult<Filter>>(`Filter/${id}/Filter`, { query: { pageSize: 0 } satisfies Partial<FilterChildrenQuery>, signal }),
    enabled,
  });
}

export function usePreset(id: FilterIDParams['filterID'] | null) {
  return useQuery({
    queryKey: filterKeys.preset(id ?? 0),
    queryFn: ({ signal }) => api.get<Filter>(`Filter/${id}`, { query: { withConditions: true } satisfies Partial<FilterGetQuery>, signal }),
    enabled: id !== null,
  });
}

/** The Info criteria of the catalogue, by name (what the sidebar and Add Condition offer). */
export function useFilterCriteria() {
  return useQuery({
    queryKey: filterKeys.expressions,
    queryFn: async ({ signal }) => {
      const all = await api.get<FilterExpressionHelp[]>('Filter/Expressions', { signal });
      return all.filter((e) => e.Group === 'Info').sort((a, b) => a.Name.localeCompare(b.Name));
    },
    staleTime: Infinity,
  });
}

export function useSavePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOrUpdateFilterBody) => api.post<Filter>('Filter', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filterKeys.presets }),
  });
}

export function useDeletePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: FilterIDParams['filterID']) => api.delete<void>(`Filter/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filterKeys.presets }),
  });
}
