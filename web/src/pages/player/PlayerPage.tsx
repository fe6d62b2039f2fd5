import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { PlaybackInfo } from '@shoko-ts/contract';
import { useEpisode, usePlaybackInfo, useSeriesName, useSeriesPlayableEpisodes } from '@/api/playback';
import { Player, type NextEpisode } from '@/components/player/Player';
import { PlayerError, PlayerLoading } from '@/components/player/PlayerOverlays';
import { playerPath } from '@/components/player/playerPath';
import { episodeTitle } from '@/components/series/EpisodeRow';
import { episodeLabel } from '@/components/series/seriesFormat';
import { nextEpisodeAfter } from './nextEpisode';

/** Back where the viewer came from; the series (or the dashboard) when the player was opened directly. */
function useBack(seriesId: number | null) {
  const navigate = useNavigate();
  return () => {
    if ((window.history.state as { idx?: number } | null)?.idx) void navigate(-1);
    else void navigate(seriesId ? `/collection/series/${seriesId}/episodes` : '/dashboard');
  };
}

function PlayerScreen({ info, episodeId }: { info: PlaybackInfo; episodeId: number | null }) {
  const navigate = useNavigate();
  const episode = useEpisode(episodeId).data;
  const seriesId = info.SeriesID ?? episode?.IDs.ParentSeries ?? null;
  const back = useBack(seriesId);
  const seriesName = useSeriesName(seriesId).data;
  const episodes = useSeriesPlayableEpisodes(seriesId, episode?.AniDB?.Type ?? null).data;
  const following = nextEpisodeAfter(episodes?.List, episodeId);
  const next: NextEpisode | null = following && {
    title: `${episodeLabel(following.episode.AniDB?.Type, following.episode.AniDB?.EpisodeNumber)} — ${episodeTitle(following.episode)}`,
    play: () => void navigate(playerPath(following.fileId, following.episode.IDs.ID), { replace: true }),
  };
  const heading = {
    title: seriesName ?? info.FileName,
    subtitle: episode ? `${episodeLabel(episode.AniDB?.Type, episode.AniDB?.EpisodeNumber)} — ${episodeTitle(episode)}` : info.FileName,
  };
  return <Player key={info.FileID} info={info} episodeId={episodeId} heading={heading} next={next} onBack={back} />;
}

/** /webui/player/{fileId}?episode={episodeId}: the whole window is the player. */
export default function PlayerPage() {
  const fileId = Number(useParams().fileId);
  const episodeParam = Number(useSearchParams()[0].get('episode')) || null;
  const info = usePlaybackInfo(fileId);
  const back = useBack(null);
  return (
    <div className="fixed inset-0 bg-black" data-testid="player-page">
      {info.isPending ? (
        <PlayerLoading text="Loading…" />
      ) : info.isError ? (
        <PlayerError message={info.error.message} onBack={back} />
      ) : (
        <PlayerScreen info={info.data} episodeId={episodeParam ?? info.data.EpisodeIDs[0] ?? null} />
      )}
    </div>
  );
}
