import { mdiLinkOff, mdiLinkVariant, mdiPencil } from '@mdi/js';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { TmdbEpisode } from '@shoko-ts/contract';
import type { TmdbLinkType } from '@/api/tmdb';
import { Icon } from '@/components/Icon';
import { effectiveLinks, episodeLabel, ratingBadge, seasonEpisode, type LinkRow } from './linkingState';

const ROW_HEIGHT = 64;

const BADGE_COLOURS: Record<string, string> = {
  DT: 'bg-success text-white',
  '~DT': 'bg-success/70 text-white',
  D: 'bg-primary text-on-primary',
  T: 'bg-primary text-on-primary',
  '~T': 'bg-primary/70 text-on-primary',
  UO: 'bg-warning text-black',
  BG: 'bg-danger/80 text-white',
  None: 'bg-panel-alt text-muted',
};

interface LinkingListProps {
  type: TmdbLinkType;
  rows: LinkRow[];
  tmdbEpisodes: ReadonlyMap<number, TmdbEpisode>;
  movieTitle: string;
  hasMore: boolean;
  loadMore: () => void;
  onEdit: (row: LinkRow) => void;
}

/** Two columns, AniDB | TMDB, one virtual row per AniDB episode; the page loads more as the end comes into view. */
export function LinkingList({ type, rows, tmdbEpisodes, movieTitle, hasMore, loadMore, onEdit }: LinkingListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (index) => rows[index].anidbId,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && lastIndex >= rows.length - 10) loadMore();
  }, [hasMore, lastIndex, rows.length, loadMore]);

  return (
    <div
      role="table"
      aria-label="Episode links"
      aria-rowcount={rows.length + 1}
      className="rounded-xl border border-border bg-panel text-sm"
    >
      <div role="row" className="grid grid-cols-2 gap-3 border-b border-border px-4 py-3 text-xs font-semibold uppercase text-muted">
        <span role="columnheader">AniDB</span>
        <span role="columnheader">TMDB</span>
      </div>
      <div ref={scrollRef} className="max-h-[65vh] overflow-y-auto" data-testid="linking-scroll">
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index];
            const links = effectiveLinks(row);
            const staged = row.override !== undefined;
            const badge = staged ? 'UO' : ratingBadge(row.rating);
            const disabled = row.disabledReason !== null;
            const title = row.episode.AniDB?.Title ?? row.episode.Name;
            return (
              <div
                key={item.key}
                role="row"
                data-testid="link-row"
                data-anidb-id={row.anidbId}
                aria-disabled={disabled || undefined}
                title={row.disabledReason ?? undefined}
                className={`absolute left-0 top-0 grid w-full grid-cols-2 items-center gap-3 border-b border-border px-4 ${disabled ? 'opacity-50' : ''} ${staged ? 'bg-primary/10' : ''}`}
                style={{ height: item.size, transform: `translateY(${item.start}px)` }}
              >
                <div role="cell" className="flex min-w-0 items-center gap-2">
                  <span className="w-10 shrink-0 font-mono text-xs text-muted">{episodeLabel(row.episode)}</span>
                  <div className="min-w-0">
                    <div className="truncate font-semibold">{title}</div>
                    <div className="text-xs text-muted">{row.episode.AniDB?.AirDate ?? 'Unknown air date'}</div>
                  </div>
                </div>
                <div role="cell" className="flex min-w-0 items-center gap-2">
                  <span
                    className={`w-11 shrink-0 rounded px-1 py-0.5 text-center text-xs font-bold ${BADGE_COLOURS[badge]}`}
                    data-testid="rating-badge"
                  >
                    {badge}
                  </span>
                  <div className="min-w-0 flex-1">
                    {links.length === 0 ? (
                      <span className="text-muted">{disabled ? row.disabledReason : 'No Link'}</span>
                    ) : type === 'Movie' ? (
                      <span className="truncate font-semibold">{movieTitle}</span>
                    ) : (
                      links.map((id) => {
                        const episode = tmdbEpisodes.get(id);
                        return (
                          <div key={id} className="truncate" data-testid="tmdb-episode">
                            {episode ? (
                              <>
                                <span className="block font-mono text-xs text-muted sm:mr-2 sm:inline">
                                  {seasonEpisode(episode.SeasonNumber, episode.EpisodeNumber)}
                                </span>
                                <span className="block truncate font-semibold sm:inline">{episode.Title}</span>
                              </>
                            ) : (
                              <span className="text-muted">TMDB episode {id}</span>
                            )}
                          </div>
                        );
                      })
                    )}
                  </div>
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => onEdit(row)}
                    aria-label={type === 'Movie' ? (links.length ? `Unlink ${title}` : `Link ${title}`) : `Edit link of ${title}`}
                    className="shrink-0 rounded-md p-1.5 text-muted hover:bg-panel-alt hover:text-text disabled:cursor-not-allowed"
                  >
                    <Icon path={type === 'Movie' ? (links.length ? mdiLinkOff : mdiLinkVariant) : mdiPencil} size={0.8} />
                  </button>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
