import { mdiAlertCircleOutline, mdiPlay, mdiRestart, mdiSkipForward } from '@mdi/js';
import { useEffect, useState } from 'react';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { clockText } from '@/components/dashboard/progress';
import type { SkippablePart } from './chapters';

const card = 'flex max-w-md flex-col gap-4 rounded-xl border border-border bg-panel/95 p-6 text-text shadow-2xl backdrop-blur';

/** Asked before anything plays when the viewer stopped part-way last time. */
export function ResumeOffer({ position, onResume, onStartOver }: { position: number; onResume: () => void; onStartOver: () => void }) {
  return (
    <div className="absolute inset-0 z-20 flex items-center justify-center bg-black/60" data-testid="player-resume-offer">
      <div className={card} role="dialog" aria-label="Resume playback">
        <p className="text-base font-semibold">You stopped this episode at {clockText(position)}.</p>
        <div className="flex flex-wrap gap-3">
          <Button onClick={onResume}>
            <Icon path={mdiPlay} size={0.8} /> Resume from {clockText(position)}
          </Button>
          <Button variant="secondary" onClick={onStartOver}>
            <Icon path={mdiRestart} size={0.8} /> Start over
          </Button>
        </div>
      </div>
    </div>
  );
}

export const NEXT_EPISODE_COUNTDOWN_SECONDS = 10;

/** At the end: the next episode starts after a short countdown, or at once, or not at all. */
export function NextEpisodeCountdown({ title, onPlay, onCancel }: { title: string; onPlay: () => void; onCancel: () => void }) {
  const [left, setLeft] = useState(NEXT_EPISODE_COUNTDOWN_SECONDS);
  useEffect(() => {
    const timer = window.setInterval(() => setLeft((seconds) => seconds - 1), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left <= 0) onPlay();
  }, [left, onPlay]);
  return (
    <div className="absolute right-6 bottom-28 z-20" data-testid="player-next-countdown">
      <div className={card} role="dialog" aria-label="Next episode">
        <div className="flex flex-col gap-1">
          <span className="text-xs font-semibold tracking-wide text-primary uppercase">Next episode in {Math.max(0, left)} s</span>
          <span className="text-base font-semibold">{title}</span>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button onClick={onPlay}>
            <Icon path={mdiPlay} size={0.8} /> Play Now
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </div>
  );
}

export function SkipButton({ part, onSkip }: { part: SkippablePart; onSkip: () => void }) {
  return (
    <button
      type="button"
      onClick={onSkip}
      className="absolute right-6 bottom-28 z-10 inline-flex items-center gap-2 rounded-md border border-white/30 bg-black/70 px-5 py-2.5 text-sm font-semibold text-white shadow-xl backdrop-blur hover:border-primary hover:text-primary"
      data-testid="player-skip"
    >
      Skip {part} <Icon path={mdiSkipForward} size={0.8} />
    </button>
  );
}

/** Over a paused picture (also when the browser refused to start playing by itself). */
export function BigPlayButton({ onPlay }: { onPlay: () => void }) {
  return (
    <button
      type="button"
      onClick={onPlay}
      aria-label="Play"
      className="absolute top-1/2 left-1/2 z-10 inline-flex size-20 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white shadow-2xl backdrop-blur transition-colors hover:bg-primary hover:text-on-primary"
      data-testid="player-big-play"
    >
      <Icon path={mdiPlay} size={2.2} />
    </button>
  );
}

export function PlayerLoading({ text }: { text: string }) {
  return (
    <div
      className="pointer-events-none absolute inset-0 z-10 flex flex-col items-center justify-center gap-3 text-white/85"
      data-testid="player-loading"
    >
      <Spinner />
      <span className="text-sm">{text}</span>
    </div>
  );
}

/** Why the file does not play (the server's own words when it answered), with the way back. */
export function PlayerError({ message, onBack }: { message: string; onBack: () => void }) {
  return (
    <div className="absolute inset-0 z-30 flex items-center justify-center bg-black/70" data-testid="player-error">
      <div className={card} role="alert">
        <div className="flex items-start gap-3">
          <Icon path={mdiAlertCircleOutline} size={1.1} className="shrink-0 text-danger" />
          <div className="flex flex-col gap-1">
            <p className="text-base font-semibold">This file cannot be played here.</p>
            <p className="text-sm text-muted" data-testid="player-error-message">
              {message}
            </p>
          </div>
        </div>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
        </div>
      </div>
    </div>
  );
}
