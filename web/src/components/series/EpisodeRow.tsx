import { mdiEye, mdiEyeOff, mdiEyeOffOutline, mdiEyeOutline, mdiFileOutline, mdiStar } from '@mdi/js';
import type { Episode } from '@shoko-ts/contract';
import { imageUrl } from '@/api/images';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { PlayEpisodeButton } from '@/components/player/PlayEpisode';
import { StarRating } from './StarRating';
import { anidbDescription, episodeLabel, formatDate } from './seriesFormat';

export const episodeTitle = (episode: Episode) => episode.AniDB?.Title || episode.Name;

/**
 * Thumbnail, number, title, air date, files and the description of one episode (not when `compact`).
 * `filterDescription`: the console setting, read once by the list rather than by each of its rows.
 */
export function EpisodeSummary({
  episode,
  compact,
  filterDescription = false,
}: {
  episode: Episode;
  compact?: boolean;
  filterDescription?: boolean;
}) {
  const thumb = episode.Images.Thumbnails?.[0];
  const aired = formatDate(episode.AniDB?.AirDate);
  const rating = episode.AniDB?.Rating;
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row">
      <div
        className={`${compact ? 'h-[90px] w-[160px]' : 'h-[112px] w-[200px]'} flex shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-panel-alt text-xs text-muted`}
      >
        {thumb ? <img src={imageUrl(thumb)} alt="" loading="lazy" className="h-full w-full object-cover" /> : 'No thumbnail'}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="text-xs font-semibold uppercase tracking-wide text-primary">
          {episodeLabel(episode.AniDB?.Type, episode.AniDB?.EpisodeNumber)}
        </span>
        <span className="break-words text-base font-semibold" data-testid="episode-title">
          {episodeTitle(episode)}
        </span>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <span>{aired ? `Aired ${aired}` : 'Air Date Unknown'}</span>
          <span className="inline-flex items-center gap-1">
            <Icon path={mdiFileOutline} size={0.55} />
            {episode.Size === 0 ? 'Missing' : `${episode.Size} ${episode.Size === 1 ? 'File' : 'Files'}`}
          </span>
          {rating && rating.Votes > 0 && (
            <span className="inline-flex items-center gap-1">
              <Icon path={mdiStar} size={0.55} /> {rating.Value.toFixed(2)} ({rating.Votes})
            </span>
          )}
          {episode.IsHidden && <span className="font-semibold text-warning">Hidden</span>}
        </div>
        {!compact && episode.AniDB?.Description && (
          <p className="line-clamp-3 text-sm text-muted">{anidbDescription(episode.AniDB.Description, filterDescription)}</p>
        )}
      </div>
    </div>
  );
}

interface EpisodeRowProps {
  episode: Episode;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onWatched: (watched: boolean) => void;
  onHidden: ((hidden: boolean) => void) | null;
  onVote: (stars: number) => void;
  busy: boolean;
  /** Whether AniDB descriptions are shown filtered (the console setting). */
  filterDescription: boolean;
}

/** One row of the Episodes tab: selection, summary, watched state and the watch/hide actions. */
export function EpisodeRow({ episode, selected, onSelect, onWatched, onHidden, onVote, busy, filterDescription }: EpisodeRowProps) {
  const title = episodeTitle(episode);
  const watched = !!episode.Watched;
  return (
    <div
      className={`flex flex-col gap-3 rounded-lg border bg-panel p-4 md:flex-row md:items-center ${selected ? 'border-primary' : 'border-border'}`}
      data-testid="episode-row"
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={`Select ${title}`}
        className="size-4 shrink-0 self-start accent-[var(--color-primary)] md:self-center"
      />
      <EpisodeSummary episode={episode} filterDescription={filterDescription} />
      <div className="flex shrink-0 flex-row flex-wrap items-center gap-2 md:flex-col md:items-end">
        <span className={`text-xs font-semibold ${watched ? 'text-success' : 'text-muted'}`} data-testid="episode-watched-state">
          {watched ? `Watched ${formatDate(episode.Watched)}` : 'Unwatched'}
        </span>
        {episode.Size > 0 && <PlayEpisodeButton episodeId={episode.IDs.ID} title={title} />}
        <Button
          variant={watched ? 'secondary' : 'primary'}
          className="px-3 py-1.5"
          disabled={busy}
          onClick={() => onWatched(!watched)}
          aria-label={`${watched ? 'Mark unwatched' : 'Mark watched'}: ${title}`}
        >
          <Icon path={watched ? mdiEyeOffOutline : mdiEyeOutline} size={0.7} /> {watched ? 'Mark Unwatched' : 'Mark Watched'}
        </Button>
        <StarRating value={episode.UserRating?.Value ?? 0} onRate={onVote} disabled={busy} label={`Rating: ${title}`} size={0.6} />
        {onHidden && (
          <Button
            variant="ghost"
            className="px-3 py-1.5"
            disabled={busy}
            onClick={() => onHidden(!episode.IsHidden)}
            aria-label={`${episode.IsHidden ? 'Unhide' : 'Hide'}: ${title}`}
          >
            <Icon path={episode.IsHidden ? mdiEye : mdiEyeOff} size={0.7} /> {episode.IsHidden ? 'Unhide' : 'Hide'}
          </Button>
        )}
      </div>
    </div>
  );
}
