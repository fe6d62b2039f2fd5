import { useQuery } from '@tanstack/react-query';
import type { RandomImageMetadata } from '@shoko-ts/contract';
import { serverUrl } from '@/lib/basePath';
import { api } from './client';

export function imageUrl(image: Pick<RandomImageMetadata, 'Source' | 'Type' | 'ID'>): string {
  return serverUrl(
    `/api/v3/Image/${encodeURIComponent(image.Source)}/${encodeURIComponent(image.Type)}/${encodeURIComponent(String(image.ID))}`,
  );
}

/** A random image of a type; failures (no images yet, endpoint missing) simply yield nothing. */
export function useRandomImage(type: 'Backdrop' | 'Poster') {
  return useQuery({
    queryKey: ['images', 'random', type],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<RandomImageMetadata>(`Image/Random/${type}/Metadata`, { signal });
      } catch {
        return null;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}
