import { useState, type ReactNode } from 'react';
import type { FileSummaryGroup, SeriesFileSummary } from '@shoko-ts/contract';
import { useOfflineFolderIds } from '@/api/importFolders';
import { useSeriesFileSummary } from '@/api/series';
import { OfflineBadge } from '@/components/importFolders/OfflineBadge';
import { offlineFileCount } from '@/components/importFolders/offline';
import { EmptyNote, Panel } from '@/components/Panel';
import { QueryContent } from '@/components/QueryContent';
import { ToggleGroup } from '@/components/ToggleGroup';
import { episodeLabel, formatDate } from '@/components/series/seriesFormat';
import { formatFileSize } from '@/lib/format';
import { useSeriesContext } from './seriesContext';

const VIEWS = ['Series Files', 'Missing Files'] as const;
type View = (typeof VIEWS)[number];
const TYPE_NAMES: Record<string, string> = {
  Episode: 'Episodes',
  Special: 'Specials',
  Other: 'Others',
  Credits: 'Credits',
  Trailer: 'Trailers',
  Parody: 'Parodies',
  Unknown: 'Unknown',
};
const languages = (list: string[] | undefined) => (list?.length ? list.join(', ') : 'None');

/** Files: the series' files grouped by release, or its missing episodes, beside a files overview. */
export default function FilesTab() {
  const { seriesId } = useSeriesContext();
  const summary = useSeriesFileSummary(seriesId);
  const [view, setView] = useState<View>('Series Files');
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-[20rem_1fr]">
      <div className="flex flex-col gap-4">
        <ToggleGroup label="Files view" className="bg-panel" wide options={VIEWS} value={view} onChange={setView}>
          {(option) => (
            <>
              {option}
              {summary.data && ` (${option === 'Series Files' ? summary.data.Groups.length : summary.data.MissingEpisodes.length})`}
            </>
          )}
        </ToggleGroup>
        {summary.data && <Overview summary={summary.data} />}
      </div>
      <div className="flex min-w-0 flex-col gap-3">
        <QueryContent query={summary}>
          {({ Groups, MissingEpisodes }) =>
            view === 'Series Files' ? (
              Groups.length === 0 ? (
                <EmptyNote testId="files-empty">This series has no files.</EmptyNote>
              ) : (
                Groups.map((group, index) => <GroupCard key={index} group={group} />)
              )
            ) : MissingEpisodes.length === 0 ? (
              <EmptyNote testId="missing-empty">You have no missing episodes or specials. Well done!</EmptyNote>
            ) : (
              <Panel title="Missing Episodes">
                <ul className="flex flex-col divide-y divide-border" aria-label="Missing episodes">
                  {MissingEpisodes.map((episode) => (
                    <li key={episode.ID} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                      <span>
                        <span className="font-semibold text-primary">{episodeLabel(episode.Type, episode.EpisodeNumber)}</span>{' '}
                        {episode.Title}
                      </span>
                      <span className="text-xs text-muted">{formatDate(episode.AirDate) ?? 'Air Date Unknown'}</span>
                    </li>
                  ))}
                </ul>
              </Panel>
            )
          }
        </QueryContent>
      </div>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span className="text-xs font-semibold uppercase tracking-wide text-muted">{label}</span>
      <span className="break-words text-sm">{children}</span>
    </div>
  );
}

function Overview({ summary }: { summary: SeriesFileSummary }) {
  const { Overview: overview } = summary;
  return (
    <Panel title="Files Overview">
      <div className="flex flex-col gap-3" data-testid="files-overview">
        <Fact label="Total File Size">{formatFileSize(overview.TotalFileSize)}</Fact>
        <Fact label="Release Groups">{overview.ReleaseGroups.length ? overview.ReleaseGroups.join(', ') : 'None'}</Fact>
        {overview.SourcesByType.map((byType) => (
          <Fact key={byType.Type} label={`${TYPE_NAMES[byType.Type] ?? byType.Type} Sources`}>
            {byType.Sources.map((source) => `${source.Type} (${source.Count})`).join(', ')}
          </Fact>
        ))}
      </div>
    </Panel>
  );
}

function GroupCard({ group }: { group: FileSummaryGroup }) {
  const ranges = Object.entries(group.RangeByType);
  const size = ranges.reduce((sum, [, range]) => sum + range.FileSize, 0);
  const { offline, files } = offlineFileCount(group.Locations ?? [], useOfflineFolderIds());
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-border bg-panel p-4" data-testid="file-group">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold">
          {group.GroupName ?? 'Unknown'}{' '}
          {group.GroupNameShort && group.GroupNameShort !== group.GroupName && <span className="text-muted">({group.GroupNameShort})</span>}
        </h3>
        {offline > 0 && <OfflineBadge label={offline === files ? 'Offline' : `${offline} of ${files} offline`} />}
        <span className="text-sm text-muted">{formatFileSize(size)}</span>
      </header>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {ranges.map(([type, range]) => (
          <Fact key={type} label={TYPE_NAMES[type] ?? type}>
            {range.Range} <span className="text-muted">({range.Count})</span>
          </Fact>
        ))}
        <Fact label="Source">{group.FileSource ?? 'Unknown'}</Fact>
        <Fact label="Version">{group.FileVersion !== undefined ? `v${group.FileVersion}` : 'Unknown'}</Fact>
        <Fact label="Audio">{languages(group.AudioLanguages)}</Fact>
        <Fact label="Subtitles">{languages(group.SubtitleLanguages)}</Fact>
        <Fact label="Location">{group.FileLocation || '/'}</Fact>
      </div>
    </section>
  );
}
