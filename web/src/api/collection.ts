import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CollectionPatchBody,
  CreateOrUpdateGroupBody,
  Group,
  GroupIDParams,
  Series,
  SeriesParams,
  WebUIGroupExtra,
  WebUIGroupViewBody,
} from '@shoko-ts/contract';
import { api } from './client';
import { filterKeys } from './filters';

export const groupKeys = {
  all: ['groups'] as const,
  one: (id: number) => ['groups', 'one', id] as const,
  series: (id: number) => ['groups', 'series', id] as const,
  views: ['groups', 'view'] as const,
  view: (ids: number[]) => ['groups', 'view', ids] as const,
};

export function useGroup(id: GroupIDParams['groupID'] | null) {
  return useQuery({
    queryKey: groupKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<Group>(`Group/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useGroupSeries(id: GroupIDParams['groupID'] | null) {
  return useQuery({
    queryKey: groupKeys.series(id ?? 0),
    queryFn: ({ signal }) => api.get<Series[]>(`Group/${id}/Series`, { signal }),
    enabled: id !== null,
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
