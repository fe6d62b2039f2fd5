import dayjs from 'dayjs';
import { mdiCloudOffOutline } from '@mdi/js';
import { Icon } from '@/components/Icon';
import { isNewPost, postUrl, useShokoNews } from './news';
import type { DashboardSettings } from './settings';
import { Widget } from './Widget';

export const NEWS_TEXTS = {
  offline: 'News is unavailable while the server has no internet connection.',
  empty: 'No news right now.',
};

/** Shoko News: the latest posts of the Shoko blog, or a quiet notice when there is no internet connection. */
export function NewsWidget({ settings }: { settings: DashboardSettings }) {
  const { checking, offline, news } = useShokoNews(true);
  const posts = (news.data ?? []).slice(0, settings.shokoNewsPostsCount);
  const state = checking
    ? { isPending: true, error: null }
    : offline
      ? { isPending: false, error: null }
      : { isPending: news.isPending, error: news.error ? new Error('The news could not be loaded.') : null };
  return (
    <Widget title="Shoko News" testId="widget-shoko-news" state={state} isEmpty={!offline && !posts.length} emptyText={NEWS_TEXTS.empty}>
      {offline ? (
        <p
          className="flex flex-1 flex-col items-center justify-center gap-2 py-6 text-center font-semibold text-muted"
          data-testid="news-offline"
        >
          <Icon path={mdiCloudOffOutline} />
          {NEWS_TEXTS.offline}
        </p>
      ) : (
        <ul className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto" aria-label="News posts">
          {posts.map((post) => (
            <li key={post.filename} className="flex flex-col gap-1 border-b border-border pb-3 last:border-b-0">
              <div className="flex items-center gap-2 text-xs text-muted">
                <span>{dayjs(post.meta.date).format('MMM D, YYYY')}</span>
                {isNewPost(post) && <span className="rounded bg-primary px-1.5 font-semibold text-on-primary">New!</span>}
              </div>
              <a href={postUrl(post)} target="_blank" rel="noreferrer noopener" className="font-semibold hover:text-primary">
                {post.meta.title}
              </a>
              {post.meta.quick && <p className="line-clamp-2 text-sm text-muted">{post.meta.quick}</p>}
            </li>
          ))}
        </ul>
      )}
    </Widget>
  );
}
