import type { QueryClient } from '@tanstack/react-query';
import { groupPageQuery } from '@/api/collection';
import { settingsQuery } from '@/api/settings';
import { collectionSettingsOf } from '@/components/collection/collectionSettings';

/**
 * The first page of the whole collection as the page will ask for it (no filter, no search; random posters as the
 * stored collection settings say, the defaults for users who cannot read them).
 */
export async function prefetchCollectionFirstPage(queryClient: QueryClient): Promise<void> {
  const document = await queryClient.fetchQuery(settingsQuery()).catch(() => undefined);
  const randomImages = collectionSettingsOf(document).image.showRandomPoster;
  await queryClient.prefetchQuery(groupPageQuery({}, randomImages, 1));
}
