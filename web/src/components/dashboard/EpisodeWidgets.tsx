import dayjs from 'dayjs';
import type { DashboardEpisode } from '@shoko-ts/contract';
import {
  useContinueWatching,
  useNextUp,
  useRecentlyAddedEpisodes,
  useRecentlyAddedSeries,
  useRecommendedAnime,
  useUpcomingAnime,
} from '@/api/dashboard';
import { PlayEpisodeButton } from '@/components/player/PlayEpisode';
import { PosterCard, PosterRow } from './PosterCard';
import { watchProgress } from './progress';
import type { DashboardSettings } from './settings';
import { SegmentToggle, Widget } from './Widget';

export const DASHBOARD_TEXTS = {
  noEpisodesInProgress: 'No Episodes In Progress.',
  noNextUp: 'No Next Up Episodes.',
  noRecentEpisodes: 'No Recently Imported Episodes!',
  noRecentSeries: 'No Recently Imported Series!',
  noUpcoming: 'No Upcoming Anime.',
  noRecommended: 'No Recommended Anime!',
};

const seriesLink = (id: number | null) => (id ? `/collection/series/${id}` : null);
const episodeLabel = (episode: DashboardEpisode) =>
  `${episode.Type === 'Normal' ? 'Episode' : episode.Type} ${episode.Number} — ${episode.Title}`;

/** Play on a card: the file in progress when the list names one, else the episode's file (or a choice of them). */
function playAction(episode: DashboardEpisode) {
  const episodeId = episode.IDs.ShokoEpisode;
  if (!episodeId) return undefined;
  return <PlayEpisodeButton episodeId={episodeId} fileId={episode.IDs.ShokoFile} title={episodeLabel(episode)} look="icon" />;
}

function EpisodeCards({
  episodes,
  label,
  detail,
  playable,
}: {
  episodes: DashboardEpisode[];
  label: string;
  detail?: (episode: DashboardEpisode) => string | undefined;
  playable?: boolean;
}) {
  return (
    <PosterRow label={label}>
      {episodes.map((episode, index) => (
        <PosterCard
          key={`${episode.IDs.ShokoFile ?? 0}-${episode.IDs.ID}-${index}`}
          image={episode.Thumbnail ?? episode.SeriesPoster}
          title={episode.SeriesTitle}
          subtitle={episodeLabel(episode)}
          detail={detail?.(episode)}
          to={seriesLink(episode.IDs.ShokoSeries)}
          progress={watchProgress(episode)}
          action={playable ? playAction(episode) : undefined}
        />
      ))}
    </PosterRow>
  );
}

interface Props {
  settings: DashboardSettings;
  onChange?: (settings: DashboardSettings) => void;
}

export function ContinueWatchingWidget({ settings }: Props) {
  const query = useContinueWatching({ includeRestricted: !settings.hideR18Content });
  return (
    <Widget
      title="Continue Watching"
      testId="widget-continue-watching"
      state={query}
      isEmpty={!query.data?.List.length}
      emptyText={DASHBOARD_TEXTS.noEpisodesInProgress}
    >
      <EpisodeCards episodes={query.data?.List ?? []} label="Continue Watching" playable />
    </Widget>
  );
}

export function NextUpWidget({ settings }: Props) {
  const query = useNextUp(!settings.combineContinueWatching, { includeRestricted: !settings.hideR18Content });
  return (
    <Widget title="Next Up" testId="widget-next-up" state={query} isEmpty={!query.data?.List.length} emptyText={DASHBOARD_TEXTS.noNextUp}>
      <EpisodeCards episodes={query.data?.List ?? []} label="Next Up" playable />
    </Widget>
  );
}

export function RecentlyImportedWidget({ settings, onChange }: Props) {
  const includeRestricted = !settings.hideR18Content;
  const view = settings.recentlyImportedView;
  const episodes = useRecentlyAddedEpisodes(settings.recentlyImportedEpisodesCount, { includeRestricted, enabled: view === 'episodes' });
  const series = useRecentlyAddedSeries(settings.recentlyImportedSeriesCount, { includeRestricted, enabled: view === 'series' });
  const query = view === 'episodes' ? episodes : series;
  const toggle = (
    <SegmentToggle
      label="Recently imported view"
      value={view}
      options={[
        ['episodes', 'Episodes'],
        ['series', 'Series'],
      ]}
      onChange={(next) => onChange?.({ ...settings, recentlyImportedView: next })}
    />
  );
  return (
    <Widget
      title="Recently Imported"
      testId="widget-recently-imported"
      actions={toggle}
      state={query}
      isEmpty={!query.data?.List.length}
      emptyText={view === 'episodes' ? DASHBOARD_TEXTS.noRecentEpisodes : DASHBOARD_TEXTS.noRecentSeries}
    >
      {view === 'episodes' ? (
        <EpisodeCards episodes={episodes.data?.List ?? []} label="Recently imported episodes" />
      ) : (
        <PosterRow label="Recently imported series">
          {(series.data?.List ?? []).map((item) => (
            <PosterCard
              key={item.IDs.ID}
              image={item.Images.Posters[0] ?? null}
              title={item.Name}
              subtitle={`${item.Sizes.Local.Episodes} / ${item.Sizes.Total.Episodes} episodes`}
              to={seriesLink(item.IDs.ID)}
            />
          ))}
        </PosterRow>
      )}
    </Widget>
  );
}

export function UpcomingAnimeWidget({ settings, onChange }: Props) {
  const showAll = settings.upcomingAnimeView === 'all';
  const query = useUpcomingAnime(showAll, { includeRestricted: !settings.hideR18Content });
  const toggle = (
    <SegmentToggle
      label="Upcoming anime view"
      value={settings.upcomingAnimeView}
      options={[
        ['collection', 'My Collection'],
        ['all', 'All'],
      ]}
      onChange={(next) => onChange?.({ ...settings, upcomingAnimeView: next })}
    />
  );
  return (
    <Widget
      title="Upcoming Anime"
      testId="widget-upcoming-anime"
      actions={toggle}
      state={query}
      isEmpty={!query.data?.length}
      emptyText={DASHBOARD_TEXTS.noUpcoming}
    >
      <EpisodeCards
        episodes={query.data ?? []}
        label="Upcoming anime"
        detail={(episode) => (episode.AirDate ? dayjs(episode.AirDate).format('ddd, MMM D') : undefined)}
      />
    </Widget>
  );
}

export function RecommendedAnimeWidget({ settings }: Props) {
  const query = useRecommendedAnime({ includeRestricted: !settings.hideR18Content });
  return (
    <Widget
      title="Recommended Anime"
      testId="widget-recommended-anime"
      state={query}
      isEmpty={!query.data?.List.length}
      emptyText={DASHBOARD_TEXTS.noRecommended}
    >
      <PosterRow label="Recommended anime">
        {(query.data?.List ?? []).map(({ Anime, SimilarTo }) => (
          <PosterCard
            key={Anime.ID}
            image={Anime.Poster}
            title={Anime.Title}
            detail={`Similar to ${SimilarTo} watched`}
            to={seriesLink(Anime.ShokoID)}
          />
        ))}
      </PosterRow>
    </Widget>
  );
}
