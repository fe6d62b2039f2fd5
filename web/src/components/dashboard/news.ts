import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { ConnectivityDetails, NetworkAvailability } from '@shoko-ts/contract';
import { api } from '@/api/client';
import { useAggregateState } from '@/realtime/AggregateHub';

/** The Shoko site's blog feed, fetched by the browser (SPEC.md §9: at most 4 posts, newest first, one retry). */
export const NEWS_LIMIT = 4;
export const NEWS_URL = `https://shokoanime.com/api/getFiles?type=blog&offset=0&limit=${NEWS_LIMIT}&sort=dateDescending`;
const BLOG_URL = 'https://shokoanime.com/blog/';
const NEW_FOR_DAYS = 14;

export interface NewsPost {
  filename: string;
  meta: { date: string; title: string; quick?: string };
}

/** The posts of a feed reply; anything that is not a list of posts counts as none. */
export function newsPosts(reply: unknown): NewsPost[] {
  const results = (reply as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.filter(
    (post): post is NewsPost =>
      typeof post?.filename === 'string' && typeof post?.meta?.title === 'string' && typeof post?.meta?.date === 'string',
  );
}

export const postUrl = (post: NewsPost) => BLOG_URL + encodeURIComponent(post.filename.replace(/\.mdx$/, ''));

/** A post is 'New!' for 14 days from its date. */
export const isNewPost = (post: NewsPost, now = dayjs()) => now.diff(dayjs(post.meta.date), 'day', true) <= NEW_FOR_DAYS;

export const isOnline = (availability: NetworkAvailability | undefined) =>
  availability === 'Internet' || availability === 'PartialInternet';

/**
 * The feed, asked for only while the server reports internet access: without it the request could only fail, and a
 * failed cross-site request leaves an error in the browser console. The hub's live state wins over the REST answer.
 */
export function useShokoNews(enabled: boolean) {
  const { network } = useAggregateState();
  const connectivity = useQuery({
    queryKey: ['init', 'connectivity'],
    queryFn: ({ signal }) => api.get<ConnectivityDetails>('Init/Connectivity', { signal }),
    enabled: enabled && !network,
    staleTime: 60_000,
  });
  const availability = network?.NetworkAvailability ?? connectivity.data?.NetworkAvailability;
  const online = isOnline(availability);
  const news = useQuery({
    queryKey: ['shoko-news', NEWS_LIMIT],
    queryFn: async ({ signal }) => {
      const response = await fetch(NEWS_URL, { signal });
      if (!response.ok) throw new Error(`The news feed answered ${response.status}.`);
      return newsPosts(await response.json());
    },
    enabled: enabled && online,
    retry: 1,
    staleTime: 60 * 60_000,
  });
  // A failed connectivity answer counts as offline.
  const checking = !availability && !connectivity.error;
  return { checking, offline: !checking && !online, news };
}
