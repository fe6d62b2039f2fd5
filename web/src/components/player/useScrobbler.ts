import { useEffect, type RefObject } from 'react';
import type { ScrobbleEvent } from '@shoko-ts/contract';
import { scrobble } from '@/api/playback';

/** How often the position is reported while playing: what a closed tab loses at most. */
export const SCROBBLE_INTERVAL_MS = 15_000;

/**
 * Reports watching through `File/{id}/Scrobble` like any other client: play, pause, resume, the position every few
 * seconds, stop with the position when the page is left, and stop at the end (which the server counts as watched).
 */
export function useScrobbler(videoRef: RefObject<HTMLVideoElement | null>, fileId: number, episodeId: number | null, enabled: boolean) {
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !enabled) return;
    let started = false;
    let stopped = false;
    // The last position actually shown: leaving the page or switching sources empties the element (time 0) first.
    let position = video.currentTime;
    const report = (event: ScrobbleEvent, at = position) => void scrobble(fileId, event, at, episodeId).catch(() => undefined);
    const controller = new AbortController();
    const on = (type: string, handler: () => void) => video.addEventListener(type, handler, { signal: controller.signal });

    on('timeupdate', () => {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && !video.seeking) position = video.currentTime;
    });
    on('playing', () => {
      stopped = false;
      report(started ? 'resume' : 'play', video.currentTime);
      started = true;
    });
    on('pause', () => {
      if (started && !video.ended && !stopped) report('pause', video.currentTime);
    });
    on('ended', () => {
      stopped = true;
      report('stop', Number.isFinite(video.duration) ? video.duration : video.currentTime);
    });
    const timer = window.setInterval(() => {
      if (started && !video.paused && !video.seeking) report('scrobble', video.currentTime);
    }, SCROBBLE_INTERVAL_MS);
    const leave = () => {
      if (started && !stopped) report('stop');
      stopped = true;
    };
    window.addEventListener('pagehide', leave, { signal: controller.signal });

    return () => {
      leave();
      window.clearInterval(timer);
      controller.abort();
    };
  }, [videoRef, fileId, episodeId, enabled]);
}
