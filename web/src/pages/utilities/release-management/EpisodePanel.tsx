import { mdiChevronDown, mdiChevronRight } from '@mdi/js';
import { useState } from 'react';
import type { File, ReleaseEpisode, ReleaseManagementType, SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { useReleaseEpisodes, RELEASE_PAGE_SIZE, type ReleaseToggles } from '@/api/releaseManagement';
import { Icon } from '@/components/Icon';
import { ListState, Pager } from '@/components/List';
import { ListPanel } from '@/components/Panel';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { episodeTag, initialOptions, pathOf, type FileOption } from './selection';

export interface OpenedEpisode {
  episode: ReleaseEpisode;
  options: Map<number, FileOption>;
}

interface Props {
  type: ReleaseManagementType;
  series: SeriesWithEpisodeCount;
  toggles: ReleaseToggles;
  opened: OpenedEpisode | null;
  onOpen: (episode: OpenedEpisode | null) => void;
  hidden: ReadonlySet<number>;
  onHiddenChange: (ids: ReadonlySet<number>) => void;
}

/** The right-hand list: the chosen series' episodes; an opened episode shows its files with a keep/delete/variation choice. */
export function EpisodePanel({ type, series, toggles, opened, onOpen, hidden, onHiddenChange }: Props) {
  const [page, setPage] = useState(1);
  const episodes = useReleaseEpisodes(type, series.IDs.ID, toggles, page);
  const list = episodes.data?.List ?? [];
  const missing = type === 'MissingEpisodes';
  const toggleHidden = (id: number) => {
    const next = new Set(hidden);
    if (!next.delete(id)) next.add(id);
    onHiddenChange(next);
  };

  return (
    <ListPanel label={`Episodes of ${series.Name}`}>
      <div className="flex items-center justify-between gap-2 text-sm">
        <h2 className="min-w-0 truncate font-semibold">{series.Name}</h2>
        <span className="shrink-0 text-xs text-muted">
          {episodes.data ? `${episodes.data.Total} ${episodes.data.Total === 1 ? 'episode' : 'episodes'}` : ''}
        </span>
      </div>
      <ListState
        loading={episodes.isPending}
        error={episodes.error}
        empty={!list.length}
        emptyText="No episodes left in this list."
        loadingText="Loading episodes…"
      />
      <ul className="flex min-h-0 flex-1 flex-col gap-2 overflow-auto">
        {list.map((episode) => {
          const isOpen = opened?.episode.IDs.ID === episode.IDs.ID;
          const title = `${episodeTag(episode)} — ${episode.Name}`;
          return (
            <li key={episode.IDs.ID} className="rounded-lg border border-border" data-testid="release-episode">
              {missing ? (
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm">
                  <input
                    type="checkbox"
                    checked={hidden.has(episode.IDs.ID)}
                    onChange={() => toggleHidden(episode.IDs.ID)}
                    aria-label={`Select ${title}`}
                    className="size-4 accent-[var(--color-primary)]"
                  />
                  <span className="min-w-0 flex-1 truncate font-semibold">{title}</span>
                  <span className="shrink-0 text-xs text-muted">{episode.AniDB?.AirDate ?? ''}</span>
                </label>
              ) : (
                <button
                  type="button"
                  aria-expanded={isOpen}
                  onClick={() => onOpen(isOpen ? null : { episode, options: initialOptions(type, episode) })}
                  className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-panel-alt"
                >
                  <Icon path={isOpen ? mdiChevronDown : mdiChevronRight} size={0.8} />
                  <span className="min-w-0 flex-1 truncate font-semibold">{title}</span>
                  <span className="shrink-0 text-xs text-muted">{fileCount(episode.Files?.length ?? 0, type === 'DuplicateFiles')}</span>
                </button>
              )}
              {isOpen && opened && (
                <ul className="flex flex-col gap-2 border-t border-border p-2">
                  {(episode.Files ?? []).map((file) =>
                    type === 'DuplicateFiles' ? (
                      <DuplicateFile
                        key={file.ID}
                        file={file}
                        options={opened.options}
                        onChange={(id, option) => onOpen({ episode, options: new Map(opened.options).set(id, option) })}
                      />
                    ) : (
                      <ReleaseFile
                        key={file.ID}
                        file={file}
                        option={opened.options.get(file.ID) ?? 'keep'}
                        onChange={(option) => onOpen({ episode, options: new Map(opened.options).set(file.ID, option) })}
                      />
                    ),
                  )}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <Pager label="Episode pages" page={page} pageSize={RELEASE_PAGE_SIZE} total={episodes.data?.Total ?? 0} onPage={setPage} />
    </ListPanel>
  );
}

const fileCount = (n: number, duplicated: boolean) => `${n} ${duplicated ? 'duplicated ' : ''}${n === 1 ? 'file' : 'files'}`;

type AniDBFile = { ReleaseGroup?: { Name: string | null; ShortName: string | null }; Source?: string; Version?: number };

function fileFacts(file: File): string {
  const anidb = file.AniDB as AniDBFile | undefined;
  const group = anidb ? (anidb.ReleaseGroup?.Name ?? anidb.ReleaseGroup?.ShortName ?? 'Unknown group') : 'Manual link';
  return [group, anidb?.Source, anidb?.Version ? `v${anidb.Version}` : null, file.Resolution, formatFileSize(file.Size)]
    .filter(Boolean)
    .join(' · ');
}

function OptionGroup<T extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: T;
  choices: ReadonlyArray<readonly [T, string]>;
  onChange: (value: T) => void;
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className="flex shrink-0 overflow-hidden rounded-md border border-border text-xs font-semibold"
    >
      {choices.map(([key, text]) => (
        <label
          key={key}
          className={`cursor-pointer px-2.5 py-1 ${value === key ? (key === 'delete' ? 'bg-danger text-white' : 'bg-primary text-on-primary') : 'hover:bg-panel-alt'}`}
        >
          <input type="radio" className="sr-only" name={label} checked={value === key} onChange={() => onChange(key)} />
          {text}
        </label>
      ))}
    </div>
  );
}

const MULTIPLE_CHOICES = [
  ['keep', 'Keep'],
  ['delete', 'Delete'],
  ['variation', 'Variation'],
] as const;
const DUPLICATE_CHOICES = [
  ['keep', 'Keep'],
  ['delete', 'Delete'],
] as const;

function ReleaseFile({ file, option, onChange }: { file: File; option: FileOption; onChange: (option: FileOption) => void }) {
  const name = splitRelativePath(file.Locations[0]?.RelativePath ?? '').name || `File ${file.ID}`;
  return (
    <li className="flex flex-col gap-2 rounded-md bg-background-alt p-2 sm:flex-row sm:items-center" data-testid="release-file">
      <div className="min-w-0 flex-1">
        <div className="truncate text-sm font-semibold" title={name}>
          {name}
        </div>
        <div className="truncate text-xs text-muted">{fileFacts(file)}</div>
        {file.Locations.map((location) => (
          <div key={location.ID} className="truncate font-mono text-xs text-muted" title={pathOf(location)}>
            {pathOf(location)}
          </div>
        ))}
      </div>
      <OptionGroup label={`Option for ${name}`} value={option} choices={MULTIPLE_CHOICES} onChange={onChange} />
    </li>
  );
}

function DuplicateFile({
  file,
  options,
  onChange,
}: {
  file: File;
  options: ReadonlyMap<number, FileOption>;
  onChange: (locationId: number, option: FileOption) => void;
}) {
  const name = splitRelativePath(file.Locations[0]?.RelativePath ?? '').name || `File ${file.ID}`;
  return (
    <li className="flex flex-col gap-2 rounded-md bg-background-alt p-2" data-testid="release-file">
      <div className="min-w-0">
        <div className="truncate text-sm font-semibold">{name}</div>
        <div className="truncate text-xs text-muted">{`${fileFacts(file)} · ${file.Locations.length} copies`}</div>
      </div>
      {file.Locations.map((location) => (
        <div key={location.ID} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-2" data-testid="release-location">
          <span className="min-w-0 flex-1 break-all font-mono text-xs" title={pathOf(location)}>
            {pathOf(location)}
          </span>
          <OptionGroup
            label={`Option for ${pathOf(location)}`}
            value={options.get(location.ID) ?? 'keep'}
            choices={DUPLICATE_CHOICES}
            onChange={(option) => onChange(location.ID, option)}
          />
        </div>
      ))}
    </li>
  );
}
