import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Group, Series, WebUIGroupExtra } from '@shoko-ts/contract';
import { api } from './client';
import { filterKeys } from './filters';

export const groupKeys = {
  all: ['groups'] as const,
  one: (id: number) => ['groups', 'one', id] as const,
  series: (id: number) => ['groups', 'series', id] as const,
  views: ['groups', 'view'] as const,
  view: (ids: number[]) => ['groups', 'view', ids] as const,
};

export function useGroup(id: number | null) {
  return useQuery({
    queryKey: groupKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<Group>(`Group/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useGroupSeries(id: number | null) {
  return useQuery({
    queryKey: groupKeys.series(id ?? 0),
    queryFn: ({ signal }) => api.get<Series[]>(`Group/${id}/Series`, { signal }),
    enabled: id !== null,
  });
}

/** List-view extras (type, rating, top tags) for a page of groups. */
export function useGroupViews(ids: number[], enabled: boolean) {
  return useQuery({
    queryKey: groupKeys.view(ids),
    queryFn: ({ signal }) => api.post<WebUIGroupExtra[]>('WebUI/GroupView', { GroupIDs: ids, TagFilter: 128, TagLimit: 20 }, { signal }),
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
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api.patch<Group>(`Group/${id}`, [
        { op: 'replace', path: 'Name', value: name },
        { op: 'replace', path: 'HasCustomName', value: 'true' },
      ]),
    onSuccess: invalidate,
  });
}

export function useSetPreferredSeries() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: ({ id, seriesId }: { id: number; seriesId: number }) =>
      api.patch<Group>(`Group/${id}`, [{ op: 'replace', path: 'PreferredSeriesID', value: seriesId }]),
    onSuccess: invalidate,
  });
}

/** Moves a series out into a new group of its own. */
export function useMoveSeriesToNewGroup() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: (seriesId: number) => api.post<Group>('Group', { PreferredSeriesID: seriesId, SeriesIDs: [seriesId] }),
    onSuccess: invalidate,
  });
}
