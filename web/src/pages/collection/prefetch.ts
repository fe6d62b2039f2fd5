import type { QueryClient } from '@tanstack/react-query';
import { groupPageQuery } from '@/api/collection';
import { groupSeriesQuery, previewBody, searchCondition } from '@/api/filters';
import {
  consoleSettingsSource,
  fetchConsoleSettings,
  ownDocument,
  ownWebUISettingsQuery,
  settingsQuery,
  type SettingsDocument,
} from '@/api/settings';
import { currentUserQuery } from '@/api/users';

/**
 * `collection.image.showRandomPoster` of a settings document, read here rather than through collectionSettingsOf: that
 * module lives in the collection pages' shared chunk, which would make this loader's request wait for the pages' code.
 */
function showRandomPoster(document: SettingsDocument | undefined): boolean {
  try {
    const webui = JSON.parse(document?.WebUI_Settings || '{}') as { collection?: { image?: { showRandomPoster?: unknown } } } | null;
    return webui?.collection?.image?.showRandomPoster === true;
  } catch {
    return false;
  }
}

/** Random posters as the console settings already at hand say, or the default while they are still on their way. */
function knownRandomPosters(queryClient: QueryClient): boolean {
  const user = queryClient.getQueryData(currentUserQuery().queryKey);
  const server = queryClient.getQueryData(settingsQuery().queryKey);
  const source = consoleSettingsSource(user, server !== undefined);
  const own = source === 'own' ? queryClient.getQueryData(ownWebUISettingsQuery().queryKey) : undefined;
  const document = source === 'server' ? server : own ? ownDocument(own) : undefined;
  return showRandomPoster(document);
}

/** Random posters as the account's console settings say (the defaults if they cannot be read). */
async function randomPosters(queryClient: QueryClient): Promise<boolean> {
  return showRandomPoster(await fetchConsoleSettings(queryClient).catch(() => undefined));
}

/**
 * The first page of the whole collection as the page will ask for it (no filter, no search). It leaves at once: the
 * random-posters option only picks which image each group shows, so waiting for the settings (two requests at start-up)
 * would hold the groups back for nothing. Should the settings, once here, turn random posters on, that page is asked
 * for too; the page shows the first answer until it comes.
 */
export async function prefetchCollectionFirstPage(queryClient: QueryClient): Promise<void> {
  const guess = knownRandomPosters(queryClient);
  const first = queryClient.prefetchQuery(groupPageQuery({}, guess, 1));
  const random = await randomPosters(queryClient);
  await Promise.all([first, random === guess ? undefined : queryClient.prefetchQuery(groupPageQuery({}, random, 1))]);
}

/**
 * A group's series as its page asks for them without a saved or live filter (`search`: the page's `qs`), at once with
 * the random-posters option as far as it is known; should the settings, once here, say otherwise, they are asked for
 * again with it (the option is not part of the answer's key, so the page shows the first answer meanwhile).
 */
export async function prefetchGroupSeries(queryClient: QueryClient, groupId: number, search: string): Promise<void> {
  const body = previewBody([searchCondition(search)]);
  const guess = knownRandomPosters(queryClient);
  const first = queryClient.prefetchQuery(groupSeriesQuery(groupId, body, guess));
  const random = await randomPosters(queryClient);
  await first;
  if (random !== guess) await queryClient.prefetchQuery({ ...groupSeriesQuery(groupId, body, random), staleTime: 0 });
}
