import { useEffect, useEffectEvent, useState, type RefObject } from 'react';
import type { PlaybackSession } from '@shoko-ts/contract';
import { KEEP_ALIVE_MS, keepPlaybackSessionAlive, startPlaybackSession, stopPlaybackSession } from '@/api/playback';
import type { PlaybackPlan } from './playbackPlan';

export interface PlaybackSource {
  /** The running transcode/remux session, null in direct play. */
  session: PlaybackSession | null;
  /** Waiting for the server to start a session. */
  starting: boolean;
  error: string | null;
}

type HlsInstance = import('hls.js').default;

/** Plays from `start` once the browser can: autoplay may be refused, then the viewer presses play. */
function startAt(video: HTMLVideoElement, start: number) {
  if (start > 0 && Math.abs(video.currentTime - start) > 1) video.currentTime = start;
  void video.play().catch(() => undefined);
}

/** A session younger than this that answers 404 is broken rather than ended for silence: no new session for it. */
const SESSION_RESTART_AFTER_MS = 30_000;

async function attachHls(
  video: HTMLVideoElement,
  session: PlaybackSession,
  start: number,
  onFatal: (message: string) => void,
  onGone: () => void,
) {
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) {
    // Safari plays HLS itself.
    video.src = session.PlaylistUrl;
    video.addEventListener('loadedmetadata', () => startAt(video, start), { once: true });
    return null;
  }
  // localStorage hlsDebug=1 logs what hls.js does to the browser console (for a playback problem report).
  const debug = localStorage.getItem('hlsDebug') === '1';
  const hls: HlsInstance = new Hls({ startPosition: start, enableWorker: true, backBufferLength: 60, debug });
  const startedAt = Date.now();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
    // The server ends a session nobody asked anything of for a minute (a long pause): a new one takes over.
    else if (data.response?.code === 404 && Date.now() - startedAt > SESSION_RESTART_AFTER_MS) onGone();
    else onFatal(`Playback failed: ${data.details}${data.response?.code ? ` (HTTP ${data.response.code})` : ''}.`);
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => undefined));
  hls.loadSource(session.PlaylistUrl);
  hls.attachMedia(video);
  return hls;
}

/**
 * Feeds the `<video>` what the plan says: the file itself, or an HLS session the server starts for it. A new plan
 * (another audio track, a burnt-in subtitle) replaces the old source at the current position; leaving the page or
 * replacing the source stops the server's session (a beacon, so it also goes out when the tab closes) and destroys
 * hls.js, so nothing keeps running.
 */
export function usePlaybackSource(
  videoRef: RefObject<HTMLVideoElement | null>,
  plan: PlaybackPlan | null,
  start: number,
  /** The server ended the session (silence): the caller starts a new one where the picture is. */
  onSessionGone: () => void,
): PlaybackSource {
  const sessionGone = useEffectEvent(onSessionGone);
  // What the effect learnt, tagged with the plan it was for: a new plan starts with nothing known.
  const [outcome, setOutcome] = useState<{ plan: PlaybackPlan | null; session: PlaybackSession | null; error: string | null }>({
    plan: null,
    session: null,
    error: null,
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !plan) return;
    let disposed = false;
    let hls: HlsInstance | null = null;
    let session: PlaybackSession | null = null;
    const controller = new AbortController();
    const fail = (message: string) => !disposed && setOutcome({ plan, session, error: message });
    const stopSession = () => {
      if (session) stopPlaybackSession(session);
      session = null;
    };

    if (plan.kind === 'direct') {
      video.src = plan.url;
      video.addEventListener('loadedmetadata', () => startAt(video, start), { once: true, signal: controller.signal });
    } else {
      // Not aborted when the page is left: the server may have started ffmpeg already, so its answer is awaited and
      // the session stopped.
      startPlaybackSession(plan.request)
        .then(async (started) => {
          session = started;
          if (disposed) return stopSession();
          setOutcome({ plan, session: started, error: null });
          const keepAlive = window.setInterval(() => session && keepPlaybackSessionAlive(session), KEEP_ALIVE_MS);
          controller.signal.addEventListener('abort', () => window.clearInterval(keepAlive));
          hls = await attachHls(video, started, start, fail, () => !disposed && sessionGone());
          if (disposed) hls?.destroy();
        })
        .catch((error: Error) => fail(error.message));
    }
    window.addEventListener('pagehide', stopSession, { signal: controller.signal });

    return () => {
      disposed = true;
      controller.abort();
      hls?.destroy();
      stopSession();
      video.removeAttribute('src');
      video.load();
    };
    // `start` is read when a plan begins; a changed start alone (the position moving on) is no reason to reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [plan, videoRef]);

  const known = outcome.plan === plan ? outcome : { session: null, error: null };
  return { session: known.session, error: known.error, starting: plan?.kind === 'session' && !known.session && !known.error };
}
