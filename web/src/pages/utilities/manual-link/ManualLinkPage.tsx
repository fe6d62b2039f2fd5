import { mdiAlertOutline, mdiArrowLeft, mdiContentCopy, mdiLinkVariant, mdiMinusCircleOutline } from '@mdi/js';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import type { AnidbEpisode, File } from '@shoko-ts/contract';
import { api } from '@/api/client';
import { fileKeys } from '@/api/keys';
import { useAnidbEpisodes, useAnidbSearch, type AnidbAnimeHit } from '@/api/utilities';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { IconButton } from '@/components/IconButton';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { primaryLocation } from '../unrecognized/fileTable';
import { downloadAnime, runLinkFlow, type LinkNotice } from './linkFlow';
import { usePageTitle } from '../UtilityParts';
import { autoMatch, episodeLabel, RANGE_TYPES, rangeFill, type LinkEntry, type RangeType } from './linking';

const SEARCH_DEBOUNCE_MS = 200;

/** `?files=1,2,3` → the file ids to link. */
export function linkFileIds(raw: string | null): number[] {
  return [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map(Number)
        .filter((id) => Number.isInteger(id) && id > 0),
    ),
  ];
}

function showNotice(notice: LinkNotice) {
  const content = notice.text ? (
    <div>
      <p className="font-semibold">{notice.title}</p>
      <p className="break-all text-sm">{notice.text}</p>
    </div>
  ) : (
    notice.title
  );
  toast[notice.level](content);
}

/** Utilities → Manual Link: map the selected unrecognized files to episodes of one AniDB series and link them. */
export default function ManualLinkPage() {
  const [params] = useSearchParams();
  const fileIds = useMemo(() => linkFileIds(params.get('files')), [params]);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fileQueries = useQueries({
    queries: fileIds.map((id) => ({
      queryKey: ['files', 'one', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => api.get<File>(`File/${id}`, { signal }),
    })),
  });
  const filesLoading = fileQueries.some((q) => q.isPending);
  const filesFailed = fileQueries.filter((q) => q.isError).length;
  const loadedFiles = fileQueries.flatMap((q) => (q.data ? [q.data] : []));

  const [entries, setEntries] = useState<LinkEntry[] | null>(null);
  const nextKey = useRef(1);
  useEffect(() => {
    if (entries === null && !filesLoading && loadedFiles.length) {
      setEntries(
        loadedFiles.map((file) => ({
          key: nextKey.current++,
          fileId: file.ID,
          path: primaryLocation(file)?.RelativePath ?? `File ${file.ID}`,
          episodeId: null,
        })),
      );
    }
  }, [entries, filesLoading, loadedFiles]);

  const [anime, setAnime] = useState<AnidbAnimeHit | null>(null);
  const [picking, setPicking] = useState<number | null>(null);
  const episodes = useAnidbEpisodes(anime?.ID ?? null);
  const [autoWarning, setAutoWarning] = useState(false);
  const [linking, setLinking] = useState(false);

  // Once the series' episodes are known, file names that name an episode pick it.
  const matchedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!anime || !episodes.data || !entries || matchedFor.current === anime.ID) return;
    matchedFor.current = anime.ID;
    const result = autoMatch(entries, episodes.data.List);
    setEntries(result.entries);
    setAutoWarning(result.matched > 0 && result.entries.some((e) => e.episodeId === null));
  }, [anime, episodes.data, entries]);

  usePageTitle('Manual Link');

  const pick = async (hit: AnidbAnimeHit) => {
    setPicking(hit.ID);
    try {
      const ready = await downloadAnime(hit);
      matchedFor.current = null;
      setEntries((list) => list?.map((e) => ({ ...e, episodeId: null })) ?? null);
      setAnime(ready);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setPicking(null);
    }
  };

  const save = async () => {
    if (!anime || !entries) return;
    setLinking(true);
    try {
      const { linked } = await runLinkFlow(anime, entries, showNotice);
      void queryClient.invalidateQueries({ queryKey: fileKeys.lists });
      if (linked) navigate('/utilities/unrecognized/files');
    } finally {
      setLinking(false);
    }
  };

  const update = (key: number, change: (entry: LinkEntry) => LinkEntry[]) =>
    setEntries((list) => list?.flatMap((e) => (e.key === key ? change(e) : [e])) ?? null);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/utilities/unrecognized/files" className="inline-flex items-center gap-1 text-sm text-muted hover:text-text">
          <Icon path={mdiArrowLeft} size={0.8} /> Unrecognized Files
        </Link>
        <h1 className="text-xl font-semibold">Manual Link</h1>
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" onClick={() => navigate('/utilities/unrecognized/files')} disabled={linking}>
            Cancel
          </Button>
          <Button onClick={() => void save()} busy={linking} disabled={!anime || !entries?.length}>
            <Icon path={mdiLinkVariant} size={0.8} />
            {linking ? 'Linking…' : 'Save'}
          </Button>
        </div>
      </div>
      {autoWarning && (
        <p role="status" className="flex items-center gap-2 rounded-md border border-warning bg-panel px-3 py-2 text-sm text-warning">
          <Icon path={mdiAlertOutline} size={0.8} />
          Auto matching applied. Some files could not be matched; check the selections before saving.
        </p>
      )}
      <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section className="flex min-h-[16rem] flex-col gap-3 rounded-xl border border-border bg-panel p-4" aria-label="Selected files">
          <h2 className="font-semibold">Selected Files</h2>
          {!fileIds.length && <p className="text-muted">No files selected. Choose files under Unrecognized Files and press Manual Link.</p>}
          {filesLoading && fileIds.length > 0 && (
            <p className="flex items-center gap-2 text-muted">
              <Spinner size={0.8} /> Loading files…
            </p>
          )}
          {filesFailed > 0 && (
            <p className="text-danger">
              Error fetching file data! ({filesFailed} of {fileIds.length})
            </p>
          )}
          <ul className="flex min-h-0 flex-1 flex-col gap-2 overflow-auto">
            {entries?.map((entry) => (
              <EntryRow
                key={entry.key}
                entry={entry}
                episodes={episodes.data?.List ?? null}
                episodesLoading={!!anime && episodes.isPending}
                onEpisode={(episodeId) => update(entry.key, (e) => [{ ...e, episodeId }])}
                onDuplicate={() => update(entry.key, (e) => [e, { ...e, key: nextKey.current++, episodeId: null }])}
                onRemove={() => update(entry.key, () => [])}
              />
            ))}
          </ul>
        </section>
        <section className="flex min-h-[16rem] flex-col gap-3 rounded-xl border border-border bg-panel p-4" aria-label="AniDB series">
          {anime ? (
            <ChosenSeries
              anime={anime}
              episodes={episodes.data?.List ?? []}
              error={episodes.error}
              onChange={() => {
                setAnime(null);
                setAutoWarning(false);
              }}
              onFill={(start, type) => {
                const result = rangeFill(entries ?? [], start, type, episodes.data?.List ?? []);
                if ('error' in result) return result.error;
                setEntries(result.entries);
                setAutoWarning(false);
                return null;
              }}
            />
          ) : (
            <SeriesSearch picking={picking} onPick={(hit) => void pick(hit)} />
          )}
        </section>
      </div>
    </div>
  );
}

function EntryRow(props: {
  entry: LinkEntry;
  episodes: AnidbEpisode[] | null;
  episodesLoading: boolean;
  onEpisode: (episodeId: number | null) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}) {
  const { entry, episodes, episodesLoading, onEpisode, onDuplicate, onRemove } = props;
  const name = entry.path.split(/[\\/]/).pop();
  return (
    <li
      className="flex flex-col gap-2 rounded-md border border-border bg-panel-alt p-2 sm:flex-row sm:items-center"
      data-testid="link-entry"
    >
      <span className="min-w-0 flex-1 truncate font-mono text-xs" title={entry.path}>
        {name}
      </span>
      <div className="flex items-center gap-1">
        <select
          aria-label={`Episode for ${name}`}
          value={entry.episodeId ?? ''}
          onChange={(event) => onEpisode(event.target.value ? Number(event.target.value) : null)}
          disabled={!episodes}
          className="w-full rounded-md border border-border bg-panel px-2 py-1.5 text-sm sm:w-64"
        >
          <option value="">{episodesLoading ? 'Loading episodes…' : episodes ? 'Select episode' : 'Select a series first'}</option>
          {episodes?.map((episode) => (
            <option key={episode.ID} value={episode.ID}>
              {episodeLabel(episode)}
            </option>
          ))}
        </select>
        <IconButton icon={mdiContentCopy} hover="primary" label={`Duplicate Entry ${name}`} title="Duplicate Entry" onClick={onDuplicate} />
        <IconButton icon={mdiMinusCircleOutline} hover="danger" label={`Remove Entry ${name}`} title="Remove Entry" onClick={onRemove} />
      </div>
    </li>
  );
}

function SeriesSearch({ picking, onPick }: { picking: number | null; onPick: (hit: AnidbAnimeHit) => void }) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const results = useAnidbSearch(search);
  return (
    <>
      <h2 className="font-semibold">AniDB Series</h2>
      <SearchBox label="Search AniDB series" placeholder="Series name or AniDB ID…" value={text} onChange={setText} className="" />
      {!search && <p className="text-sm text-muted">Search for the series these files belong to.</p>}
      {search && results.isPending && (
        <p className="flex items-center gap-2 text-muted">
          <Spinner size={0.8} /> Searching…
        </p>
      )}
      {results.error && <p className="text-danger">{results.error.message}</p>}
      {search && results.data && results.data.List.length === 0 && <p className="text-muted">No results found!</p>}
      <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-auto" aria-label="AniDB search results">
        {search &&
          results.data?.List.map((hit) => (
            <li key={hit.ID}>
              <button
                type="button"
                onClick={() => onPick(hit)}
                disabled={picking !== null}
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-panel-alt disabled:opacity-60"
              >
                <span className="w-14 shrink-0 font-mono text-xs text-muted">{hit.ID}</span>
                <span className="min-w-0 flex-1 truncate">{hit.Title}</span>
                {picking === hit.ID ? (
                  <Spinner size={0.8} />
                ) : (
                  <span className="text-xs text-muted">
                    {hit.Type === 'Unknown' ? 'Not downloaded' : hit.ShokoID ? 'In collection' : hit.Type}
                  </span>
                )}
              </button>
            </li>
          ))}
      </ul>
    </>
  );
}

function ChosenSeries(props: {
  anime: AnidbAnimeHit;
  episodes: AnidbEpisode[];
  error: Error | null;
  onChange: () => void;
  onFill: (start: string, type: RangeType) => string | null;
}) {
  const { anime, episodes, error, onChange, onFill } = props;
  const [start, setStart] = useState('');
  const [type, setType] = useState<RangeType>('Episode');
  const [fillError, setFillError] = useState<string | null>(null);
  return (
    <>
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold" data-testid="chosen-series">
            {anime.Title}
          </h2>
          <p className="text-sm text-muted">
            <a href={`https://anidb.net/anime/${anime.ID}`} target="_blank" rel="noreferrer" className="text-primary hover:underline">
              AniDB {anime.ID}
            </a>
            {' · '}
            {anime.ShokoID ? 'In collection' : 'Not in collection yet: the series will be created'}
            {' · '}
            {episodes.length} episodes
          </p>
        </div>
        <Button variant="secondary" onClick={onChange}>
          Change
        </Button>
      </div>
      {error && <p className="text-danger">{error.message}</p>}
      <form
        className="flex flex-col gap-2 rounded-md border border-border p-3"
        aria-label="Range Fill"
        onSubmit={(event) => {
          event.preventDefault();
          setFillError(onFill(start, type));
        }}
      >
        <h3 className="text-sm font-semibold">Range Fill</h3>
        <p className="text-xs text-muted">Assigns consecutive episodes to the entries, in list order, from the starting episode on.</p>
        <div className="flex flex-wrap items-center gap-2">
          <select
            aria-label="Range type"
            value={type}
            onChange={(event) => setType(event.target.value as RangeType)}
            className="rounded-md border border-border bg-panel px-2 py-1.5 text-sm"
          >
            {RANGE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input
            aria-label="Starting episode"
            inputMode="numeric"
            placeholder="Start"
            value={start}
            onChange={(event) => {
              setStart(event.target.value);
              setFillError(null);
            }}
            className="w-24 rounded-md border border-border bg-panel px-2 py-1.5 text-sm"
          />
          <Button type="submit" variant="secondary" disabled={!start.trim()}>
            Fill
          </Button>
        </div>
        {fillError && (
          <p role="alert" className="text-sm text-danger">
            {fillError}
          </p>
        )}
      </form>
    </>
  );
}
