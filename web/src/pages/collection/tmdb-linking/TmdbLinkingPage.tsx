import { mdiChevronRight, mdiCog } from '@mdi/js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import type { Series, TmdbEpisode } from '@shoko-ts/contract';
import { useSeries } from '@/api/series';
import {
  useFetchTmdbEntry,
  useLinkingEpisodes,
  useLinkingLinks,
  useSaveLinks,
  useTmdbEpisodesById,
  useTmdbOnlineMovie,
  useTmdbShow,
  type TmdbCandidate,
  type TmdbLinkType,
} from '@/api/tmdb';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { TmdbShowSettingsModal } from '@/components/series/TmdbShowSettingsModal';
import { EpisodePickerModal } from './EpisodePickerModal';
import { LinkingList } from './LinkingList';
import { LinkSelectPanel } from './LinkSelectPanel';
import { buildRows, episodeLabel, stageOverride, TEXTS, toggleMovie, type LinkRow } from './linkingState';

const parseType = (value: string | null): TmdbLinkType | null => (value === 'Show' || value === 'Movie' ? value : null);

/** /collection/series/{seriesId}/tmdb-linking?type=Show|Movie&id=N: link the series' episodes to a TMDB show or movie. */
export default function TmdbLinkingPage() {
  const seriesId = Number(useParams().seriesId);
  const [params, setParams] = useSearchParams();
  const type = parseType(params.get('type'));
  const id = Number(params.get('id') ?? 0);
  const series = useSeries(seriesId);
  const fetchEntry = useFetchTmdbEntry();

  const pick = (candidate: TmdbCandidate) =>
    fetchEntry.mutate(candidate, {
      onSuccess: () => setParams({ type: candidate.type, id: String(candidate.id) }),
      onError: () => toast.error('Failed to refresh data!'),
    });

  if (series.isError) return <p className="p-6 text-danger">{series.error.message}</p>;
  if (!series.data) {
    return (
      <div className="flex flex-1 items-center justify-center p-6">
        <Spinner />
      </div>
    );
  }
  return (
    <div className="flex flex-1 flex-col gap-4 p-3 md:p-6">
      <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1 text-sm text-muted">
        <Link to="/collection" className="hover:text-text">
          Collection
        </Link>
        <Icon path={mdiChevronRight} size={0.7} />
        <Link to={`/collection/series/${seriesId}`} className="hover:text-text">
          {series.data.Name}
        </Link>
        <Icon path={mdiChevronRight} size={0.7} />
        <span className="text-text">TMDB Linking</span>
      </nav>
      {type && id > 0 ? (
        <LinkingEditor key={`${type}-${id}`} series={series.data} type={type} id={id} onChangeLink={() => setParams({})} />
      ) : (
        <LinkSelectPanel
          seriesId={seriesId}
          initialType={series.data.AniDB?.Type === 'Movie' ? 'Movie' : 'Show'}
          onPick={pick}
          busy={fetchEntry.isPending}
        />
      )}
    </div>
  );
}

function LinkingEditor({ series, type, id, onChangeLink }: { series: Series; type: TmdbLinkType; id: number; onChangeLink: () => void }) {
  const seriesId = series.IDs.ID;
  const navigate = useNavigate();
  // Opened straight from a URL, the show or movie may not be stored yet: fetch it (cheap when it is).
  const fetchEntry = useFetchTmdbEntry();
  const fetchMutate = fetchEntry.mutate; // stable across renders, unlike the mutation object
  const [ready, setReady] = useState(false);
  useEffect(() => {
    fetchMutate({ type, id }, { onSettled: () => setReady(true), onError: () => toast.error('Failed to refresh data!') });
  }, [type, id, fetchMutate]);

  const linked = (type === 'Show' ? series.IDs.TMDB.Show : series.IDs.TMDB.Movie).includes(id);
  const show = useTmdbShow(id, ready && type === 'Show');
  const movie = useTmdbOnlineMovie(id, ready && type === 'Movie');
  const links = useLinkingLinks(seriesId, type, id, linked, ready);
  const episodes = useLinkingEpisodes(seriesId);
  const [overrides, setOverrides] = useState<ReadonlyMap<number, number>>(new Map());
  const [picked, setPicked] = useState<ReadonlyMap<number, TmdbEpisode>>(new Map());
  const [editing, setEditing] = useState<LinkRow | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const save = useSaveLinks(seriesId);

  const anidbEpisodes = useMemo(() => episodes.data?.pages.flatMap((page) => page.List) ?? [], [episodes.data]);
  const rows = useMemo(() => buildRows(anidbEpisodes, links.data, type, id, overrides), [anidbEpisodes, links.data, type, id, overrides]);
  const linkedIds = useMemo(
    () =>
      links.data?.type === 'Show'
        ? [...new Set(links.data.links.filter((l) => l.TmdbShowID === id && l.TmdbEpisodeID).map((l) => l.TmdbEpisodeID))].sort(
            (a, b) => a - b,
          )
        : [],
    [links.data, id],
  );
  const bulk = useTmdbEpisodesById(linkedIds);
  const tmdbEpisodes = useMemo(() => new Map([...(bulk.data ?? []).map((e) => [e.ID, e] as const), ...picked]), [bulk.data, picked]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = episodes;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  /** AniDB episodes still linked to this show once the overrides apply (a show left with none is unlinked on save). */
  const remainingLinks = useMemo(() => {
    const withLink = new Set(
      links.data?.type === 'Show'
        ? links.data.links.filter((l) => l.TmdbShowID === id && l.TmdbEpisodeID).map((l) => l.AnidbEpisodeID)
        : [],
    );
    for (const [anidbId, value] of overrides) {
      if (value) withLink.add(anidbId);
      else withLink.delete(anidbId);
    }
    return withLink.size;
  }, [links.data, overrides, id]);

  const title = type === 'Show' ? show.data?.Title : movie.data?.Title;
  const canSave = overrides.size > 0 || (type === 'Show' && !linked);
  const onEdit = (row: LinkRow) => {
    if (type === 'Movie') setOverrides((current) => toggleMovie(current, row, id));
    else setEditing(row);
  };
  const onPickEpisode = (tmdbId: number, episode?: TmdbEpisode) => {
    if (!editing) return;
    setOverrides((current) => stageOverride(current, editing, tmdbId));
    if (episode) setPicked((current) => new Map(current).set(episode.ID, episode));
    setEditing(null);
  };
  const onSave = () =>
    save.mutate(
      { type, id, linked, overrides, remainingLinks },
      {
        onSuccess: () => navigate(`/collection/series/${seriesId}`),
        onError: () => toast.error(TEXTS.saveFailed),
      },
    );

  const loading = !ready || links.isPending || episodes.isPending;
  const failure = links.error ?? episodes.error ?? (type === 'Show' ? show.error : movie.error);
  return (
    <>
      <section className="flex flex-col gap-4 rounded-xl border border-border bg-panel p-5 lg:flex-row lg:items-center lg:justify-between">
        <div className="grid min-w-0 flex-1 grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="min-w-0">
            <div className="text-xs font-semibold uppercase text-muted">AniDB · {series.IDs.AniDB}</div>
            <div className="truncate text-lg font-semibold" data-testid="linking-anidb-title">
              {series.AniDB?.Title ?? series.Name}
            </div>
          </div>
          <div className="min-w-0">
            <div className="text-xs font-semibold uppercase text-muted">
              TMDB {type} · {id}
              {linked ? '' : ' · New Link'}
            </div>
            <div className="truncate text-lg font-semibold" data-testid="linking-tmdb-title">
              {title ?? '…'}
            </div>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={onChangeLink}>
            Change Link
          </Button>
          {type === 'Show' && (
            <Button variant="secondary" onClick={() => setSettingsOpen(true)} disabled={!show.data} aria-label="TMDb Show Settings">
              <Icon path={mdiCog} size={0.7} /> Settings
            </Button>
          )}
          <Button variant="secondary" onClick={() => navigate(`/collection/series/${seriesId}`)}>
            Cancel
          </Button>
          <span title={canSave ? undefined : TEXTS.noLinks}>
            <Button onClick={onSave} disabled={!canSave || loading} busy={save.isPending}>
              Save Links
            </Button>
          </span>
        </div>
      </section>
      {!canSave && !loading && <p className="text-sm text-muted">{TEXTS.noLinks}</p>}
      {loading ? (
        <div className="flex justify-center p-6">
          <Spinner />
        </div>
      ) : failure ? (
        <p className="text-danger">{failure.message}</p>
      ) : rows.length === 0 ? (
        <p className="text-muted">The series has no episodes to link.</p>
      ) : (
        <LinkingList
          type={type}
          rows={rows}
          tmdbEpisodes={tmdbEpisodes}
          movieTitle={title ?? `Movie ${id}`}
          hasMore={!!hasNextPage}
          loadMore={loadMore}
          onEdit={onEdit}
        />
      )}
      {type === 'Show' && (
        <EpisodePickerModal
          showId={id}
          target={editing ? { label: episodeLabel(editing.episode), title: editing.episode.AniDB?.Title ?? editing.episode.Name } : null}
          onPick={onPickEpisode}
          onClose={() => setEditing(null)}
        />
      )}
      {type === 'Show' && <TmdbShowSettingsModal showId={id} open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </>
  );
}
