import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  Episode,
  EpisodeQuery,
  File,
  ListResult,
  PlaybackInfo,
  PlaybackSession,
  PlaybackSessionRequest,
  ScrobbleEvent,
  Series,
  SeriesEpisodesQuery,
} from '@shoko-ts/contract';
import { api, buildUrl } from './client';

export const playbackKeys = {
  info: (fileId: number) => ['playback', fileId, 'info'] as const,
  episode: (episodeId: number) => ['episodes', episodeId, 'detail'] as const,
  episodeFiles: (episodeId: number) => ['episodes', episodeId, 'files'] as const,
  seriesEpisodes: (seriesId: number, type: string) => ['series', seriesId, 'episodes', 'playable', type] as const,
};

/** What the file holds and how to play it; its URLs carry tokens that expire, so it is read fresh for every visit. */
export function usePlaybackInfo(fileId: number) {
  return useQuery({
    queryKey: playbackKeys.info(fileId),
    queryFn: ({ signal }) => api.get<PlaybackInfo>(`File/${fileId}/Playback`, { signal }),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
}

export function useEpisode(episodeId: number | null) {
  return useQuery({
    queryKey: playbackKeys.episode(episodeId ?? 0),
    queryFn: ({ signal }) =>
      api.get<Episode>(`Episode/${episodeId}`, { query: { includeDataFrom: 'AniDB' } satisfies Partial<EpisodeQuery>, signal }),
    enabled: !!episodeId,
  });
}

/** The files of an episode, for choosing one to play when it has several (read when Play is pressed). */
export const episodeFilesQuery = (episodeId: number) =>
  queryOptions({
    queryKey: playbackKeys.episodeFiles(episodeId),
    queryFn: async ({ signal }) => (await api.get<ListResult<File>>(`Episode/${episodeId}/File`, { query: { pageSize: 0 }, signal })).List,
    staleTime: 30_000,
  });

/** The series' episodes of one type that have files, in order, with their files: where the next episode comes from. */
export function useSeriesPlayableEpisodes(seriesId: number | null, type: string | null) {
  return useQuery({
    queryKey: playbackKeys.seriesEpisodes(seriesId ?? 0, type ?? ''),
    queryFn: ({ signal }) =>
      api.get<ListResult<Episode>>(`Series/${seriesId}/Episode`, {
        query: {
          pageSize: 0,
          type: type ?? undefined,
          includeMissing: 'false',
          includeHidden: 'false',
          includeWatched: 'true',
          includeUnaired: 'false',
          includeFiles: true,
          includeDataFrom: 'AniDB',
        } satisfies Partial<SeriesEpisodesQuery>,
        signal,
      }),
    enabled: !!seriesId && !!type,
  });
}

export function startPlaybackSession(request: PlaybackSessionRequest, signal?: AbortSignal) {
  return api.post<PlaybackSession>('Playback/Session', request, { signal });
}

/**
 * Ends a session as the page goes away: a beacon outlives the page and needs no header, the session's own token
 * (from its playlist URL) is its authority. Falls back to the API key's DELETE where beacons are unavailable.
 */
export function stopPlaybackSession(session: Pick<PlaybackSession, 'SessionID' | 'PlaylistUrl'>) {
  const token = new URL(session.PlaylistUrl, window.location.href).searchParams.get('token');
  const id = encodeURIComponent(session.SessionID);
  if (token && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(buildUrl(`Playback/Session/${id}/Stop`, { token })))
    return;
  void api.delete(`Playback/Session/${id}`, undefined, { keepalive: true }).catch(() => undefined);
}

/** The server ends a session nothing was asked of for a minute; a paused viewer keeps it with this, well within. */
export const KEEP_ALIVE_MS = 25_000;

/** Tells the server the viewer is still there (a pause asks nothing of the playlist or segments). */
export function keepPlaybackSessionAlive(session: Pick<PlaybackSession, 'SessionID' | 'PlaylistUrl'>) {
  const token = new URL(session.PlaylistUrl, window.location.href).searchParams.get('token');
  if (!token) return;
  const url = buildUrl(`Playback/Session/${encodeURIComponent(session.SessionID)}/KeepAlive`, { token });
  // A session already ended answers 404; hls.js meets it on its next request and a new session takes over.
  void fetch(url, { method: 'POST' }).catch(() => undefined);
}

/** .NET ticks (100 ns) of a position in seconds, the form `resumePosition` takes. */
export const secondsToTicks = (seconds: number) => Math.max(0, Math.round(seconds * 10_000_000));

/** Reports playback through the contract's scrobble route, as every other client does (resume, watched, Trakt). */
export function scrobble(fileId: number, event: ScrobbleEvent, positionSeconds: number, episodeId: number | null) {
  return api.patch<string>(`File/${fileId}/Scrobble`, undefined, {
    query: { event, resumePosition: secondsToTicks(positionSeconds), episodeID: episodeId ?? undefined },
    keepalive: true,
  });
}

/** The series' name for the player's heading. */
export function useSeriesName(seriesId: number | null) {
  return useQuery({
    queryKey: ['series', seriesId ?? 0, 'name'] as const,
    queryFn: async ({ signal }) => (await api.get<Series>(`Series/${seriesId}`, { signal })).Name,
    enabled: !!seriesId,
  });
}
