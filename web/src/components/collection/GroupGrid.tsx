import { mdiEyeOffOutline, mdiLayersTripleOutline } from '@mdi/js';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { Group, WebUIGroupExtra } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { PrefetchLink } from '@/components/PrefetchLink';
import type { CollectionSettings } from './collectionSettings';
import { PosterImage, unwatchedCount } from './PosterImage';

const POSTER_WIDTH = 188;
const POSTER_ROW_HEIGHT = 340;
const LIST_ROW_HEIGHT = 132;

export function groupLink(group: Group): string {
  return group.Size > 1 || group.Sizes.SubGroups > 0 ? `/collection/group/${group.IDs.ID}` : `/collection/series/${group.IDs.MainSeries}`;
}

const Poster = ({ group, className }: { group: Group; className: string }) => (
  <PosterImage image={group.Images.Posters[0]} className={className} />
);

interface GroupGridProps {
  /** How many groups there are in all: the grid is as tall as all of them from the start. */
  count: number;
  /** The group at a position, or undefined while its page is being fetched (a placeholder stands in). */
  groupAt: (index: number) => Group | undefined;
  /** The positions drawn now (first and last, with the overscan): the pages to fetch. */
  onRangeChange: (first: number, last: number) => void;
  mode: 'poster' | 'list';
  settings: CollectionSettings;
  extras: Map<number, WebUIGroupExtra>;
}

/** The virtualized groups of the collection page, as posters or as list rows; the pages in view are fetched. */
export function GroupGrid({ count, groupAt, onRangeChange, mode, settings, extras }: GroupGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const columns = mode === 'poster' ? Math.max(1, Math.floor((width + 16) / (POSTER_WIDTH + 16))) : width >= 1100 ? 2 : 1;
  const rows = Math.ceil(count / columns);
  // Full poster rows are centred; the last, shorter row stays aligned with them.
  const inset = mode === 'poster' ? Math.max(0, Math.floor((width - (columns * POSTER_WIDTH + (columns - 1) * 16)) / 2)) : 0;
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (mode === 'poster' ? POSTER_ROW_HEIGHT : LIST_ROW_HEIGHT),
    overscan: 3,
  });
  const items = virtualizer.getVirtualItems();
  const firstShown = items.length ? items[0]!.index * columns : 0;
  const lastShown = items.length ? Math.min(count, (items[items.length - 1]!.index + 1) * columns) - 1 : 0;
  useEffect(() => onRangeChange(firstShown, lastShown), [firstShown, lastShown, onRangeChange]);

  return (
    <div className="relative min-h-[20rem] flex-1">
      {/* data-has-more: every row has its height from the start; nothing is appended at the end. */}
      <div ref={scrollRef} className="absolute inset-0 overflow-y-auto" data-testid="group-grid" data-mode={mode} data-has-more={false}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((row) => (
            <div
              key={row.key}
              className="absolute left-0 flex w-full gap-4"
              style={{ transform: `translateY(${row.start}px)`, height: row.size, paddingLeft: inset }}
            >
              {Array.from({ length: Math.min(columns, count - row.index * columns) }, (_, column) => {
                const index = row.index * columns + column;
                const group = groupAt(index);
                if (!group) return <Placeholder key={`loading-${index}`} mode={mode} />;
                return mode === 'poster' ? (
                  <PosterCard key={group.IDs.ID} group={group} settings={settings} />
                ) : (
                  <ListRow key={group.IDs.ID} group={group} settings={settings} extra={extras.get(group.IDs.ID)} />
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** Where a group will be once its page has arrived: the same size, so nothing moves when it does. */
function Placeholder({ mode }: { mode: 'poster' | 'list' }) {
  return mode === 'poster' ? (
    <div className="flex shrink-0 flex-col gap-2" style={{ width: POSTER_WIDTH }} data-testid="group-placeholder" aria-busy="true">
      <div className="h-[272px] w-full animate-pulse rounded-lg border border-border bg-panel-alt" />
    </div>
  ) : (
    <div
      className="flex min-w-0 flex-1 animate-pulse rounded-lg border border-border bg-panel"
      style={{ height: LIST_ROW_HEIGHT - 12 }}
      data-testid="group-placeholder"
      aria-busy="true"
    />
  );
}

function PosterCard({ group, settings }: { group: Group; settings: CollectionSettings }) {
  const unwatched = unwatchedCount(group);
  const episodes = group.Sizes.Local.Episodes + group.Sizes.Local.Specials;
  return (
    <PrefetchLink
      to={groupLink(group)}
      className="group flex shrink-0 flex-col gap-2"
      style={{ width: POSTER_WIDTH }}
      data-testid="group-card"
      title={group.Name}
    >
      <div className="relative overflow-hidden rounded-lg border border-border">
        <Poster group={group} className="h-[270px] w-full transition-transform group-hover:scale-105" />
        {settings.poster.showGroupIndicator && group.Size > 1 && (
          <span
            className="absolute left-2 top-2 flex items-center gap-1 rounded bg-panel/90 px-1.5 py-0.5 text-xs font-semibold"
            title="Group"
          >
            <Icon path={mdiLayersTripleOutline} size={0.6} /> {group.Size}
          </span>
        )}
        {settings.poster.showUnwatchedCount && unwatched > 0 && (
          <span
            className="absolute right-2 top-2 rounded bg-primary px-1.5 py-0.5 text-xs font-bold text-on-primary"
            title="Unwatched episodes"
          >
            {unwatched}
          </span>
        )}
      </div>
      <div className="line-clamp-2 text-center text-sm font-semibold leading-tight">{group.Name}</div>
      {settings.poster.showEpisodeCount && (
        <div className="text-center text-xs text-muted">
          {episodes} {episodes === 1 ? 'Episode' : 'Episodes'}
        </div>
      )}
    </PrefetchLink>
  );
}

const TYPE_NAMES: Record<string, string> = { TV: 'TV Series', TVSpecial: 'TV Special', MusicVideo: 'Music Video' };

function ListRow({ group, settings, extra }: { group: Group; settings: CollectionSettings; extra?: WebUIGroupExtra }) {
  const unwatched = unwatchedCount(group);
  const tags = (extra?.Tags ?? [])
    .filter((tag) => (tag.Source === 'User' ? settings.list.showCustomTags : settings.list.showTopTags))
    .slice(0, 20);
  const years = extra?.AirDate
    ? `${extra.AirDate.slice(0, 4)}${extra.EndDate && extra.EndDate.slice(0, 4) !== extra.AirDate.slice(0, 4) ? ` – ${extra.EndDate.slice(0, 4)}` : ''}`
    : null;
  return (
    <PrefetchLink
      to={groupLink(group)}
      className="flex min-w-0 flex-1 gap-3 rounded-lg border border-border bg-panel p-2 hover:border-primary"
      data-testid="group-row"
      style={{ height: LIST_ROW_HEIGHT - 12 }}
    >
      <Poster group={group} className="h-full w-[72px] shrink-0 rounded" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-center gap-2">
          <span className="truncate font-semibold">{group.Name}</span>
          {settings.list.showGroupIndicator && group.Size > 1 && (
            <span className="flex shrink-0 items-center gap-1 text-xs text-muted" title="Group">
              <Icon path={mdiLayersTripleOutline} size={0.6} /> {group.Size}
            </span>
          )}
        </div>
        <div className="flex flex-wrap gap-x-3 text-xs text-muted">
          {settings.list.showItemType && extra && <span>{TYPE_NAMES[extra.Type] ?? extra.Type}</span>}
          {years && <span>{years}</span>}
          <span>
            {group.Sizes.Local.Episodes} / {group.Sizes.Total.Episodes} Episodes
          </span>
          {unwatched > 0 && (
            <span className="flex items-center gap-1">
              <Icon path={mdiEyeOffOutline} size={0.55} /> {unwatched} unwatched
            </span>
          )}
        </div>
        {tags.length > 0 && (
          <div className="flex flex-wrap gap-1 overflow-hidden" style={{ maxHeight: 44 }} aria-label="Tags">
            {tags.map((tag) => (
              <span
                key={`${tag.Source}-${tag.ID}`}
                className={`rounded px-1.5 py-0.5 text-[11px] ${tag.Source === 'User' ? 'bg-primary/20 text-text' : 'bg-panel-alt text-muted'}`}
              >
                {tag.Name}
              </span>
            ))}
          </div>
        )}
      </div>
    </PrefetchLink>
  );
}
