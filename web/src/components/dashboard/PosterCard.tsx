import { mdiImageOffOutline } from '@mdi/js';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CollectionImage } from '@shoko-ts/contract';
import { imageUrl } from '@/api/images';
import { Icon } from '@/components/Icon';
import type { WatchProgress } from './progress';

interface PosterCardProps {
  image: CollectionImage | null;
  title: string;
  subtitle?: string;
  detail?: string;
  /** Where clicking goes (the series page), when the series is in the collection. */
  to?: string | null;
  /** How far playback got: a bar over the bottom of the poster and the position as text. */
  progress?: WatchProgress | null;
  /** A button laid over the poster's corner (Play), kept out of the link. */
  action?: React.ReactNode;
}

/** A poster with a title under it, for the horizontal lists of the dashboard. */
export function PosterCard({ image, title, subtitle, detail, to, progress, action }: PosterCardProps) {
  const [failed, setFailed] = useState(false);
  const url = image ? imageUrl(image) : null;
  const content = (
    <>
      <div className="relative flex aspect-[2/3] w-full items-center justify-center overflow-hidden rounded-lg border border-border bg-background-alt">
        {url && !failed ? (
          <img src={url} alt="" loading="lazy" className="size-full object-cover" onError={() => setFailed(true)} />
        ) : (
          <Icon path={mdiImageOffOutline} className="text-muted" />
        )}
        {progress && (
          <span
            className="absolute right-1 bottom-2.5 rounded bg-black/75 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums"
            data-testid="watch-progress"
          >
            {progress.label}
          </span>
        )}
        {progress && progress.fraction > 0 && (
          <div
            role="progressbar"
            aria-label={`${title} watched`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress.fraction * 100)}
            className="absolute inset-x-0 bottom-0 h-1.5 bg-black/60"
          >
            <div className="h-full bg-primary" style={{ width: `${progress.fraction * 100}%` }} />
          </div>
        )}
      </div>
      <p className="line-clamp-2 text-sm font-semibold" title={title}>
        {title}
      </p>
      {subtitle && (
        <p className="line-clamp-1 text-xs text-muted" title={subtitle}>
          {subtitle}
        </p>
      )}
      {detail && <p className="text-xs text-primary">{detail}</p>}
    </>
  );
  const className = 'relative flex w-32 shrink-0 flex-col gap-1 sm:w-36';
  return (
    <li className={className} data-testid="poster-card">
      {to ? (
        <Link to={to} className="flex flex-col gap-1 hover:text-primary">
          {content}
        </Link>
      ) : (
        content
      )}
      {action && <div className="absolute top-1.5 right-1.5">{action}</div>}
    </li>
  );
}

/** A row of poster cards that scrolls sideways. */
export function PosterRow({ children, label }: { children: React.ReactNode; label: string }) {
  return (
    <ul className="flex min-h-0 flex-1 gap-3 overflow-x-auto pb-2" aria-label={label}>
      {children}
    </ul>
  );
}
