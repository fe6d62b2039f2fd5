import { mdiCog, mdiOpenInNew, mdiPencil } from '@mdi/js';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RelatedAnime, Series } from '@shoko-ts/contract';
import { useNextUpEpisode, useRelatedAnime, useSeriesCast, useSimilarAnime } from '@/api/series';
import { useIsAdmin } from '@/api/users';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { QueryContent } from '@/components/QueryContent';
import { PlayEpisodeButton } from '@/components/player/PlayEpisode';
import { AnimeCard } from '@/components/series/AnimeCard';
import { PersonCard } from '@/components/series/PersonCard';
import { TmdbShowSettingsModal } from '@/components/series/TmdbShowSettingsModal';
import { EpisodeSummary, episodeTitle } from '@/components/series/EpisodeRow';
import { useSeriesContext } from './seriesContext';

const TOP_ACTORS = 20;

/** Overview: metadata sites, the episode on deck, related and similar anime, and the top 20 actors. */
export default function OverviewTab() {
  const { seriesId, series } = useSeriesContext();
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-[20rem_1fr]">
      <div className="flex flex-col gap-4">
        <MetadataSites series={series} />
        {series.Links.length > 0 && (
          <Panel title="Series Links">
            <ul className="flex flex-col gap-2 text-sm">
              {series.Links.map((link) => (
                <li key={link.URL}>
                  <ExternalLink href={link.URL}>{link.Name}</ExternalLink>
                </li>
              ))}
            </ul>
          </Panel>
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-4">
        <EpisodeOnDeck seriesId={seriesId} />
        <AnimeShelf title="Related Anime" query={useRelatedAnime(seriesId)} empty="No related anime." />
        <AnimeShelf title="Similar Anime" query={useSimilarAnime(seriesId)} empty="No similar anime." />
        <TopActors seriesId={seriesId} />
      </div>
    </div>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary hover:underline">
      {children} <Icon path={mdiOpenInNew} size={0.55} />
    </a>
  );
}

function MetadataSites({ series }: { series: Series }) {
  const shows = series.IDs.TMDB.Show;
  const movies = series.IDs.TMDB.Movie;
  // Linking TMDB changes the series for everyone: the controls are for administrators.
  const isAdmin = useIsAdmin();
  return (
    <Panel title="Metadata Sites">
      <div className="flex flex-col gap-3 text-sm" data-testid="metadata-sites">
        <div className="flex justify-between gap-3">
          <span className="font-semibold">AniDB</span>
          <ExternalLink href={`https://anidb.net/anime/${series.IDs.AniDB}`}>{series.IDs.AniDB}</ExternalLink>
        </div>
        <div className="flex justify-between gap-3">
          <span className="font-semibold">TMDB</span>
          {shows.length + movies.length === 0 ? (
            isAdmin ? (
              <Link to="../tmdb-linking" relative="path" className="text-primary hover:underline">
                Link TMDB
              </Link>
            ) : (
              <span className="text-muted">Not Linked</span>
            )
          ) : (
            <span className="flex flex-wrap justify-end gap-2">
              {shows.map((id) => (
                <span key={`show-${id}`} className="inline-flex items-center gap-1">
                  <ExternalLink href={`https://www.themoviedb.org/tv/${id}`}>{`Show ${id}`}</ExternalLink>
                  {isAdmin && <TmdbLinkActions type="Show" id={id} />}
                </span>
              ))}
              {movies.map((id) => (
                <span key={`movie-${id}`} className="inline-flex items-center gap-1">
                  <ExternalLink href={`https://www.themoviedb.org/movie/${id}`}>{`Movie ${id}`}</ExternalLink>
                  {isAdmin && <TmdbLinkActions type="Movie" id={id} />}
                </span>
              ))}
              {isAdmin && (
                <Link to="../tmdb-linking" relative="path" className="text-primary hover:underline">
                  Add Link
                </Link>
              )}
            </span>
          )}
        </div>
        <div className="flex justify-between gap-3">
          <span className="font-semibold">TraktTv</span>
          <span className="text-muted">Not Linked</span>
        </div>
      </div>
    </Panel>
  );
}

/** Edit the episode links of a linked show or movie; a show also opens its TMDb Show Settings. */
function TmdbLinkActions({ type, id }: { type: 'Show' | 'Movie'; id: number }) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <>
      <Link
        to={`../tmdb-linking?type=${type}&id=${id}`}
        relative="path"
        aria-label={`Edit ${type} ${id} links`}
        className="rounded p-0.5 text-muted hover:text-text"
      >
        <Icon path={mdiPencil} size={0.6} />
      </Link>
      {type === 'Show' && (
        <>
          <button
            type="button"
            aria-label={`TMDb Show Settings ${id}`}
            className="rounded p-0.5 text-muted hover:text-text"
            onClick={() => setSettingsOpen(true)}
          >
            <Icon path={mdiCog} size={0.6} />
          </button>
          <TmdbShowSettingsModal showId={id} open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </>
      )}
    </>
  );
}

function EpisodeOnDeck({ seriesId }: { seriesId: number }) {
  const next = useNextUpEpisode(seriesId);
  return (
    <Panel title="Episode On Deck">
      <div data-testid="episode-on-deck">
        <QueryContent query={next}>
          {(episode) =>
            episode ? (
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
                <EpisodeSummary episode={episode} compact />
                {episode.Size > 0 && <PlayEpisodeButton episodeId={episode.IDs.ID} title={episodeTitle(episode)} className="shrink-0" />}
              </div>
            ) : (
              <p className="text-sm text-muted">All available episodes have already been watched</p>
            )
          }
        </QueryContent>
      </div>
    </Panel>
  );
}

function AnimeShelf({ title, query, empty }: { title: string; query: UseQueryResult<RelatedAnime[]>; empty: string }) {
  return (
    <Panel title={title}>
      <div className="flex gap-4 overflow-x-auto pb-2" aria-label={title} role="list">
        <QueryContent query={query} empty={!query.data?.length && <p className="text-sm text-muted">{empty}</p>}>
          {(related) =>
            related.map((anime) => (
              <div role="listitem" key={`${anime.ID}-${anime.Relation ?? ''}`}>
                <AnimeCard anime={anime} />
              </div>
            ))
          }
        </QueryContent>
      </div>
    </Panel>
  );
}

function TopActors({ seriesId }: { seriesId: number }) {
  const cast = useSeriesCast(seriesId);
  const actors = (cast.data ?? []).filter((role) => role.RoleName === 'Actor' && role.Character).slice(0, TOP_ACTORS);
  return (
    <Panel title="Top 20 Actors">
      <div className="flex gap-4 overflow-x-auto pb-2" aria-label="Top actors" role="list">
        <QueryContent query={cast} empty={actors.length === 0 && <p className="text-sm text-muted">No actors listed.</p>}>
          {() =>
            actors.map((role, index) => (
              <div role="listitem" key={index} className="w-[250px] shrink-0">
                <PersonCard role={role} mode="Characters" />
              </div>
            ))
          }
        </QueryContent>
      </div>
    </Panel>
  );
}
