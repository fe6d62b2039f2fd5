import dayjs from 'dayjs';
import { mdiDeleteSweepOutline, mdiPause, mdiPlay } from '@mdi/js';
import { Link } from 'react-router';
import type { DashboardSeriesSummary } from '@shoko-ts/contract';
import { useDashboardStats, useNewestUnrecognizedFiles, useQueueItems, useSeriesSummary } from '@/api/dashboard';
import { useQueueOperation } from '@/api/queue';
import { useIsAdmin } from '@/api/users';
import { Icon } from '@/components/Icon';
import { ImportFolderList } from '@/components/importFolders/ImportFolderList';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { useAggregateState } from '@/realtime/AggregateHub';
import { AniDBWorkLeft } from './AniDBEstimate';
import { Widget } from './Widget';

export const COLLECTION_TEXTS = {
  queueEmpty: 'Queue is empty!',
  queueForAdmins: 'What the queue is working on is shown to administrators.',
  noUnrecognized: 'No unrecognized files. Good job!',
  noImportFolders: 'No Import Folders Added!',
};

const headerButton = 'flex size-8 items-center justify-center rounded-md text-muted hover:bg-panel-alt hover:text-text disabled:opacity-40';

export function QueueProcessorWidget() {
  const { queue } = useAggregateState();
  const isAdmin = useIsAdmin();
  // The queue's items and its controls are the server's, for admins; others see how much is queued.
  const items = useQueueItems(isAdmin);
  const operation = useQueueOperation();
  const running = queue?.Running ?? true;
  const list = items.data?.List ?? [];
  const actions = isAdmin && (
    <>
      <button
        type="button"
        className={headerButton}
        title={running ? 'Pause' : 'Resume'}
        aria-label={running ? 'Pause' : 'Resume'}
        disabled={operation.isPending}
        onClick={() => operation.mutate(running ? 'Pause' : 'Resume')}
      >
        <Icon path={running ? mdiPause : mdiPlay} size={0.85} />
      </button>
      <button
        type="button"
        className={headerButton}
        title="Clear"
        aria-label="Clear"
        disabled={operation.isPending || !list.length}
        onClick={() => operation.mutate('Clear')}
      >
        <Icon path={mdiDeleteSweepOutline} size={0.85} />
      </button>
    </>
  );
  return (
    <Widget
      title="Queue Processor"
      count={queue?.TotalCount ?? items.data?.Total}
      testId="widget-queue"
      actions={actions}
      state={isAdmin ? items : { isPending: false, error: null }}
      isEmpty={!list.length}
      // Paused by a fault (a lost database connection) it is not empty, though nothing runs and the list may be unreadable.
      emptyText={!isAdmin ? COLLECTION_TEXTS.queueForAdmins : queue?.Fault ? `Paused: ${queue.Fault.Reason}` : COLLECTION_TEXTS.queueEmpty}
    >
      <AniDBWorkLeft />
      <ul className="mt-1 flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto" aria-label="Queue items">
        {list.map((item) => (
          <li key={item.Key} className="flex flex-col rounded-md bg-background-alt px-3 py-2">
            <span className={`text-sm font-semibold ${item.IsRunning ? 'text-primary' : ''}`}>
              {item.IsRunning ? item.Title : item.Type}
            </span>
            <span className="truncate text-xs text-muted">
              {Object.entries(item.Details)
                .map(([key, value]) => `${key}: ${value}`)
                .join(' · ')}
            </span>
          </li>
        ))}
      </ul>
    </Widget>
  );
}

export function UnrecognizedFilesWidget() {
  const query = useNewestUnrecognizedFiles();
  const files = query.data?.List ?? [];
  return (
    <Widget
      title="Unrecognized Files"
      count={query.data?.Total}
      testId="widget-unrecognized"
      actions={
        <Link to="/utilities/unrecognized/files" className="text-sm font-semibold text-primary hover:underline">
          View All
        </Link>
      }
      state={query}
      isEmpty={!files.length}
      emptyText={COLLECTION_TEXTS.noUnrecognized}
    >
      <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto" aria-label="Unrecognized files">
        {files.map((file) => {
          const { name, directory } = splitRelativePath(file.Locations[0]?.RelativePath ?? '');
          return (
            <li
              key={file.ID}
              className="flex items-center justify-between gap-3 rounded-md bg-background-alt px-3 py-2"
              title={file.Locations[0]?.AbsolutePath ?? undefined}
            >
              <span className="flex min-w-0 flex-col">
                <span className="truncate text-sm font-semibold">{name || `File ${file.ID}`}</span>
                <span className="truncate text-xs text-muted">{directory}</span>
              </span>
              <span className="shrink-0 text-xs text-muted">{dayjs(file.Created).format('YYYY-MM-DD')}</span>
            </li>
          );
        })}
      </ul>
    </Widget>
  );
}

export function CollectionStatsWidget() {
  const query = useDashboardStats();
  const stats = query.data;
  const rows: Array<[string, string | number]> = stats
    ? [
        ['Series', stats.SeriesCount],
        ['Finished Series', stats.FinishedSeries],
        ['Watched Episodes', stats.WatchedEpisodes],
        ['Watched Hours', `${stats.WatchedHours} h`],
        ['Collection Size', formatFileSize(stats.FileSize)],
        ['Files', stats.FileCount],
        ['Unrecognized Files', stats.UnrecognizedFiles],
        ['Episodes With Multiple Files', stats.EpisodesWithMultipleFiles],
        ['Files With Duplicate Locations', stats.FilesWithDuplicateLocations],
        ['Series Missing TMDB Links', stats.SeriesWithMissingLinks],
        ['Missing Episodes (Collecting)', stats.MissingEpisodesCollecting],
        ['Missing Episodes (Total)', stats.MissingEpisodes],
      ]
    : [];
  return (
    <Widget title="Collection Statistics" testId="widget-collection-stats" state={query} isEmpty={false} emptyText="">
      <dl className="flex min-h-0 flex-1 flex-col gap-1.5 overflow-y-auto text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-muted">{label}</dt>
            <dd className="font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Widget>
  );
}

/** The console folds the rarer AniDB types into Other (contract collection.md §10). */
export function mediaTypeShares(summary: DashboardSeriesSummary): Array<[string, number]> {
  return [
    ['TV Series', summary.Series],
    ['OVA', summary.OVA],
    ['Movie', summary.Movie],
    ['Web', summary.Web],
    ['Other', summary.Other + summary.Special + summary.None + summary.Unknown + summary.MusicVideo],
  ];
}

export function MediaTypeWidget() {
  const query = useSeriesSummary();
  const shares = query.data ? mediaTypeShares(query.data) : [];
  const total = shares.reduce((sum, [, count]) => sum + count, 0);
  return (
    <Widget title="Media Type" testId="widget-media-type" state={query} isEmpty={query.isSuccess && total === 0} emptyText="No series yet.">
      <ul className="flex flex-col gap-3 text-sm" aria-label="Media types">
        {shares.map(([label, count]) => {
          const percent = total ? Math.round((count * 1000) / total) / 10 : 0;
          return (
            <li key={label} className="flex flex-col gap-1">
              <span className="flex justify-between">
                <span>{label}</span>
                <span className="font-semibold tabular-nums">
                  {count} · {percent}%
                </span>
              </span>
              <span className="h-2 overflow-hidden rounded-full bg-background-alt">
                <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
              </span>
            </li>
          );
        })}
      </ul>
    </Widget>
  );
}

export function ImportFoldersWidget() {
  return (
    <Widget title="Import Folders" testId="widget-import-folders" state={{ isPending: false, error: null }} isEmpty={false} emptyText="">
      <div className="min-h-0 flex-1 overflow-y-auto">
        <ImportFolderList scannable />
      </div>
    </Widget>
  );
}
