import { mdiArrowLeft } from '@mdi/js';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { PlaybackInfo } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { useSession } from '@/lib/session';
import { skipTarget } from './chapters';
import { PlayerControls } from './PlayerControls';
import { BigPlayButton, NextEpisodeCountdown, PlayerError, PlayerLoading, ResumeOffer, SkipButton } from './PlayerOverlays';
import { controlButtonClass } from './PlayerMenu';
import { browserProbe, planPlayback, samePlayback, type PlaybackPlan, type TrackChoice } from './playbackPlan';
import { playerActionForKey, SEEK_STEP_SECONDS, VOLUME_STEP, type PlayerAction } from './playerKeys';
import { audioLabel, loadRememberedTracks, nextSubtitle, pickAudio, pickSubtitle, rememberTracks, subtitleLabel } from './trackPreferences';
import { useAssSubtitles } from './useAssSubtitles';
import { usePlaybackSource } from './usePlaybackSource';
import { useScrobbler } from './useScrobbler';
import { useVideoState } from './useVideoState';
import './player.css';

export interface NextEpisode {
  title: string;
  play: () => void;
}

interface PlayerProps {
  info: PlaybackInfo;
  episodeId: number | null;
  /** Series and episode, shown over the picture. */
  heading: { title: string; subtitle: string };
  next: NextEpisode | null;
  onBack: () => void;
}

const CONTROLS_HIDE_MS = 3000;

function initialChoice(info: PlaybackInfo, user: string): TrackChoice {
  const remembered = loadRememberedTracks(user, info.SeriesID);
  const audioIndex = pickAudio(info.Audio, info.PreferredAudioLanguages, remembered);
  const audioLanguage = info.Audio.find((stream) => stream.Index === audioIndex)?.Language ?? null;
  return { audioIndex, subtitleId: pickSubtitle(info.Subtitles, info.PreferredSubtitleLanguages, audioLanguage, remembered) };
}

/**
 * The player: plays the file directly or through a server session, draws its subtitles, reports watching, offers to
 * resume, skip openings and go on to the next episode, and answers the usual keys.
 */
export function Player({ info, episodeId, heading, next, onBack }: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const user = useSession()?.username ?? '';
  const probe = useMemo(() => browserProbe(), []);
  const [choice, setChoice] = useState<TrackChoice>(() => initialChoice(info, user));
  const resumePosition = info.ResumePosition && info.ResumePosition > 0 ? info.ResumePosition : null;
  const [offerResume, setOfferResume] = useState(resumePosition !== null);
  const [plan, setPlan] = useState<PlaybackPlan | null>(() => (resumePosition === null ? planPlayback(info, probe, choice, 0) : null));
  const [planStart, setPlanStart] = useState(0);
  const [countdown, setCountdown] = useState(false);
  const [controlsVisible, setControlsVisible] = useState(true);
  const hideTimer = useRef<number | undefined>(undefined);

  const source = usePlaybackSource(videoRef, plan, planStart, () => {
    // The same plan as a new object, from here: the source starts a new session.
    const at = videoRef.current?.currentTime ?? 0;
    setPlanStart(at);
    setPlan((current) =>
      current?.kind === 'session' ? { ...current, request: { ...current.request, StartPosition: Math.floor(at) } } : current,
    );
  });
  const state = useVideoState(videoRef, info.Duration);
  useScrobbler(videoRef, info.FileID, episodeId, plan !== null);

  const subtitle = info.Subtitles.find((candidate) => candidate.ID === choice.subtitleId) ?? null;
  const assUrl = subtitle?.Format === 'ass' ? subtitle.Url : null;
  const vttSubtitle = subtitle?.Format === 'vtt' && subtitle.Url ? subtitle : null;
  const subtitleError = useAssSubtitles(videoRef, assUrl, info.Fonts);

  const begin = (start: number) => {
    setOfferResume(false);
    setPlanStart(start);
    setPlan(planPlayback(info, probe, choice, start));
  };

  const selectTracks = (nextChoice: TrackChoice) => {
    setChoice(nextChoice);
    const picked = info.Subtitles.find((candidate) => candidate.ID === nextChoice.subtitleId);
    rememberTracks(user, info.SeriesID, {
      audioLanguage: info.Audio.find((stream) => stream.Index === nextChoice.audioIndex)?.Language ?? null,
      subtitleLanguage: picked ? (picked.Language ?? 'und') : null,
    });
    if (!plan) return;
    const at = videoRef.current?.currentTime ?? 0;
    const replanned = planPlayback(info, probe, nextChoice, at);
    if (samePlayback(plan, replanned)) return;
    setPlanStart(at);
    setPlan(replanned);
  };

  // The browser said it plays the file, then could not: the server makes it playable instead.
  const directFailed = plan?.kind === 'direct' && !!state.mediaError && info.FfmpegAvailable;
  useEffect(() => {
    if (!directFailed) return;
    const at = videoRef.current?.currentTime ?? 0;
    setPlanStart(at);
    setPlan(planPlayback(info, probe, choice, at, { directFailed: true }));
  }, [directFailed, info, probe, choice]);

  const video = () => videoRef.current;
  const seekTo = (seconds: number) => {
    const element = video();
    if (!element) return;
    element.currentTime = Math.max(0, Math.min(seconds, (state.duration || info.Duration) - 0.5));
  };
  const togglePlay = () => {
    const element = video();
    if (!element || !plan) return;
    if (element.paused || element.ended) void element.play().catch(() => undefined);
    else element.pause();
  };
  const setVolume = (volume: number) => {
    const element = video();
    if (!element) return;
    element.volume = Math.min(1, Math.max(0, Math.round(volume * 100) / 100));
    element.muted = element.volume === 0;
  };
  const toggleFullscreen = () => {
    // The whole page, so that menus (drawn at the document's end) stay visible.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  const pictureInPicture =
    typeof document !== 'undefined' && document.pictureInPictureEnabled
      ? () => {
          const element = video();
          if (!element) return;
          if (document.pictureInPictureElement) void document.exitPictureInPicture();
          else void element.requestPictureInPicture().catch(() => undefined);
        }
      : null;

  const actions: Record<PlayerAction, () => void> = {
    'toggle-play': togglePlay,
    'seek-back': () => seekTo((video()?.currentTime ?? 0) - SEEK_STEP_SECONDS),
    'seek-forward': () => seekTo((video()?.currentTime ?? 0) + SEEK_STEP_SECONDS),
    'volume-up': () => setVolume((video()?.volume ?? 1) + VOLUME_STEP),
    'volume-down': () => setVolume((video()?.volume ?? 1) - VOLUME_STEP),
    fullscreen: toggleFullscreen,
    mute: () => {
      const element = video();
      if (element) element.muted = !element.muted;
    },
    'cycle-subtitles': () => selectTracks({ ...choice, subtitleId: nextSubtitle(info.Subtitles, choice.subtitleId) }),
    'next-episode': () => next?.play(),
  };

  const showControls = () => {
    setControlsVisible(true);
    window.clearTimeout(hideTimer.current);
    hideTimer.current = window.setTimeout(() => {
      if (videoRef.current && !videoRef.current.paused) setControlsVisible(false);
    }, CONTROLS_HIDE_MS);
  };
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (offerResume) return;
    const action = playerActionForKey(event);
    if (!action) return;
    event.preventDefault();
    actions[action]();
    showControls();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => {
      window.removeEventListener('keydown', listener);
      window.clearTimeout(hideTimer.current);
    };
  }, []);

  const onEnded = useEffectEvent(() => {
    if (next) setCountdown(true);
  });
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    const listener = () => onEnded();
    element.addEventListener('ended', listener);
    return () => element.removeEventListener('ended', listener);
  }, []);

  // A WebVTT track is added as a <track>; the browser shows it only once told to.
  useEffect(() => {
    const tracks = videoRef.current?.textTracks;
    if (!tracks) return;
    for (const track of Array.from(tracks)) track.mode = vttSubtitle && track.label === vttSubtitle.ID ? 'showing' : 'disabled';
  }, [vttSubtitle]);

  const skip = plan ? skipTarget(info.Chapters, state.currentTime) : null;
  const error =
    source.error ??
    (state.mediaError && !directFailed
      ? `The browser could not play this file (${state.mediaError.message || `error ${state.mediaError.code}`}).`
      : null);
  const loadingText = source.starting
    ? 'Starting the stream…'
    : plan && (state.waiting || (!state.playing && state.currentTime === 0 && !state.duration))
      ? 'Loading…'
      : null;
  const hidden = !controlsVisible && state.playing && !countdown;

  return (
    <div
      className={`player-root relative h-full w-full overflow-hidden bg-black select-none ${hidden ? 'cursor-none' : ''}`}
      onMouseMove={showControls}
      data-testid="player"
      data-playback-mode={plan?.kind ?? 'none'}
      data-session-id={source.session?.SessionID ?? ''}
      data-video-mode={source.session?.VideoMode ?? ''}
      data-audio-index={choice.audioIndex ?? ''}
      data-subtitle-id={choice.subtitleId ?? ''}
    >
      {/* Subtitle canvases (libass) are laid over the video by the renderer, so the video keeps a positioned parent. */}
      <div className="absolute inset-0">
        {/* Captions are the file's own subtitle tracks: a <track> for WebVTT, libass's canvas for ASS. */}
        {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
        <video
          ref={videoRef}
          className="h-full w-full object-contain"
          playsInline
          preload="auto"
          onClick={togglePlay}
          onDoubleClick={toggleFullscreen}
          data-testid="player-video"
        >
          {vttSubtitle?.Url && (
            <track
              key={vttSubtitle.ID}
              kind="subtitles"
              src={vttSubtitle.Url}
              label={vttSubtitle.ID}
              srcLang={vttSubtitle.Language ?? undefined}
              default
            />
          )}
        </video>
      </div>

      <div
        className={`absolute inset-x-0 top-0 z-10 flex items-center gap-3 bg-gradient-to-b from-black/85 to-transparent px-4 pt-3 pb-10 text-white transition-opacity ${hidden ? 'opacity-0' : 'opacity-100'}`}
      >
        <button type="button" className={controlButtonClass} onClick={onBack} aria-label="Back" title="Back">
          <Icon path={mdiArrowLeft} size={1} />
        </button>
        <div className="flex min-w-0 flex-col">
          <span className="truncate text-base font-semibold" data-testid="player-title">
            {heading.title}
          </span>
          <span className="truncate text-sm text-white/70">{heading.subtitle}</span>
        </div>
        {subtitleError && <span className="ml-auto text-xs text-warning">{subtitleError}</span>}
      </div>

      {skip && !hidden && <SkipButton part={skip.part} onSkip={() => seekTo(skip.end)} />}
      {loadingText && !error && <PlayerLoading text={loadingText} />}
      {plan && !loadingText && !error && !countdown && !state.playing && !state.ended && <BigPlayButton onPlay={togglePlay} />}
      {offerResume && resumePosition !== null && (
        <ResumeOffer position={resumePosition} onResume={() => begin(resumePosition)} onStartOver={() => begin(0)} />
      )}
      {countdown && next && <NextEpisodeCountdown title={next.title} onPlay={next.play} onCancel={() => setCountdown(false)} />}
      {error && <PlayerError message={error} onBack={onBack} />}

      <div className={`absolute inset-x-0 bottom-0 z-10 transition-opacity ${hidden ? 'pointer-events-none opacity-0' : 'opacity-100'}`}>
        <PlayerControls
          state={state}
          chapters={info.Chapters}
          audio={{
            choices: info.Audio.map((stream) => ({ value: stream.Index, label: audioLabel(stream) })),
            selected: choice.audioIndex,
            onSelect: (audioIndex) => selectTracks({ ...choice, audioIndex }),
          }}
          subtitles={{
            choices: [
              { value: null, label: 'Off' },
              ...info.Subtitles.map((candidate) => ({ value: candidate.ID, label: subtitleLabel(candidate) })),
            ],
            selected: choice.subtitleId,
            onSelect: (subtitleId) => selectTracks({ ...choice, subtitleId }),
          }}
          onTogglePlay={togglePlay}
          onSeek={seekTo}
          onSeekBy={(seconds) => seekTo((video()?.currentTime ?? 0) + seconds)}
          onVolume={setVolume}
          onToggleMute={actions.mute}
          onSpeed={(speed) => {
            const element = video();
            if (element) element.playbackRate = speed;
          }}
          onPictureInPicture={pictureInPicture}
          onFullscreen={toggleFullscreen}
          onNext={next ? next.play : null}
        />
      </div>
    </div>
  );
}
