import type { QueryClient } from '@tanstack/react-query';
import { groupPageQuery } from '@/api/collection';
import { groupSeriesQuery, previewBody, searchCondition } from '@/api/filters';
import { fetchConsoleSettings } from '@/api/settings';
import { collectionSettingsOf } from '@/components/collection/collectionSettings';

/** Random posters as the account's console settings say (the defaults if they cannot be read). */
async function randomPosters(queryClient: QueryClient): Promise<boolean> {
  const document = await fetchConsoleSettings(queryClient).catch(() => undefined);
  return collectionSettingsOf(document).image.showRandomPoster;
}

/** The first page of the whole collection as the page will ask for it (no filter, no search). */
export async function prefetchCollectionFirstPage(queryClient: QueryClient): Promise<void> {
  await queryClient.prefetchQuery(groupPageQuery({}, await randomPosters(queryClient), 1));
}

/** A group's series as its page asks for them without a saved or live filter (`search`: the page's `qs`). */
export async function prefetchGroupSeries(queryClient: QueryClient, groupId: number, search: string): Promise<void> {
  const body = previewBody([searchCondition(search)]);
  await queryClient.prefetchQuery(groupSeriesQuery(groupId, body, await randomPosters(queryClient)));
}
