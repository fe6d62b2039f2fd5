import {
  mdiFullscreen,
  mdiFullscreenExit,
  mdiPause,
  mdiPictureInPictureBottomRight,
  mdiPlay,
  mdiRewind10,
  mdiFastForward10,
  mdiSkipNext,
  mdiSpeedometer,
  mdiSubtitlesOutline,
  mdiVolumeHigh,
  mdiVolumeOff,
  mdiTranslate,
} from '@mdi/js';
import type { PlaybackChapter } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { clockText } from '@/components/dashboard/progress';
import { controlButtonClass, PlayerMenu, type MenuChoice } from './PlayerMenu';

export const PLAYBACK_SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

export interface PlayerState {
  playing: boolean;
  currentTime: number;
  duration: number;
  volume: number;
  muted: boolean;
  speed: number;
  fullscreen: boolean;
}

interface PlayerControlsProps {
  state: PlayerState;
  chapters: readonly PlaybackChapter[];
  audio: { choices: MenuChoice<number>[]; selected: number | null; onSelect: (index: number) => void };
  subtitles: { choices: MenuChoice<string | null>[]; selected: string | null; onSelect: (id: string | null) => void };
  onTogglePlay: () => void;
  onSeek: (seconds: number) => void;
  onSeekBy: (seconds: number) => void;
  onVolume: (volume: number) => void;
  onToggleMute: () => void;
  onSpeed: (speed: number) => void;
  onPictureInPicture: (() => void) | null;
  onFullscreen: () => void;
  onNext: (() => void) | null;
}

/** The bar under the picture: seek bar with chapter marks, play, ±10 s, volume, time, tracks, speed, PiP, fullscreen. */
export function PlayerControls(props: PlayerControlsProps) {
  const { state, chapters, audio, subtitles } = props;
  const duration = state.duration > 0 ? state.duration : 0;
  const played = duration ? Math.min(100, (state.currentTime / duration) * 100) : 0;
  return (
    <div
      className="flex flex-col gap-1 bg-gradient-to-t from-black/90 via-black/60 to-transparent px-4 pt-10 pb-3"
      data-testid="player-controls"
    >
      <div className="relative h-4">
        <input
          type="range"
          min={0}
          max={duration || 1}
          step={0.1}
          value={Math.min(state.currentTime, duration || 1)}
          onChange={(event) => props.onSeek(Number(event.target.value))}
          aria-label="Seek"
          aria-valuetext={`${clockText(state.currentTime)} of ${clockText(duration)}`}
          className="player-seek absolute inset-x-0 top-1/2 w-full -translate-y-1/2 cursor-pointer"
          style={{ '--played': `${played}%` } as React.CSSProperties}
          data-testid="player-seek"
        />
        {duration > 0 &&
          chapters
            .filter((chapter) => chapter.Start > 0)
            .map((chapter) => (
              <span
                key={chapter.Start}
                title={chapter.Title ?? undefined}
                className="pointer-events-none absolute top-1/2 h-2 w-0.5 -translate-y-1/2 bg-black/70"
                style={{ left: `${(chapter.Start / duration) * 100}%` }}
              />
            ))}
      </div>
      <div className="flex items-center gap-1 text-white">
        <ControlButton
          icon={state.playing ? mdiPause : mdiPlay}
          size={1.1}
          label={state.playing ? 'Pause' : 'Play'}
          shortcut="k"
          onClick={props.onTogglePlay}
        />
        <ControlButton icon={mdiRewind10} label="Back 10 seconds" shortcut="←" onClick={() => props.onSeekBy(-10)} />
        <ControlButton icon={mdiFastForward10} label="Forward 10 seconds" shortcut="→" onClick={() => props.onSeekBy(10)} />
        {props.onNext && <ControlButton icon={mdiSkipNext} size={1} label="Next episode" shortcut="n" onClick={props.onNext} />}
        <ControlButton
          icon={state.muted || state.volume === 0 ? mdiVolumeOff : mdiVolumeHigh}
          label={state.muted ? 'Unmute' : 'Mute'}
          shortcut="m"
          onClick={props.onToggleMute}
        />
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={state.muted ? 0 : state.volume}
          onChange={(event) => props.onVolume(Number(event.target.value))}
          aria-label="Volume"
          className="player-volume w-24 cursor-pointer"
          style={{ '--played': `${(state.muted ? 0 : state.volume) * 100}%` } as React.CSSProperties}
        />
        <span className="ml-3 text-sm text-white/85 tabular-nums" data-testid="player-time">
          {clockText(state.currentTime)} / {clockText(duration)}
        </span>
        <div className="flex-1" />
        {audio.choices.length > 1 && (
          <PlayerMenu
            label="Audio"
            icon={mdiTranslate}
            choices={audio.choices}
            selected={audio.selected ?? -1}
            onSelect={audio.onSelect}
            testId="player-audio"
          />
        )}
        {subtitles.choices.length > 1 && (
          <PlayerMenu
            label="Subtitles"
            icon={mdiSubtitlesOutline}
            choices={subtitles.choices}
            selected={subtitles.selected}
            onSelect={subtitles.onSelect}
            testId="player-subtitles"
          />
        )}
        <PlayerMenu
          label="Playback speed"
          icon={mdiSpeedometer}
          choices={PLAYBACK_SPEEDS.map((speed) => ({ value: speed, label: speed === 1 ? 'Normal' : `${speed}×` }))}
          selected={state.speed}
          onSelect={props.onSpeed}
          testId="player-speed"
        />
        {props.onPictureInPicture && (
          <ControlButton icon={mdiPictureInPictureBottomRight} label="Picture in picture" onClick={props.onPictureInPicture} />
        )}
        <ControlButton
          icon={state.fullscreen ? mdiFullscreenExit : mdiFullscreen}
          size={1.05}
          label={state.fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
          shortcut="f"
          onClick={props.onFullscreen}
        />
      </div>
    </div>
  );
}

interface ControlButtonProps {
  icon: string;
  label: string;
  /** The key that does the same, shown in the tooltip. */
  shortcut?: string;
  size?: number;
  onClick: () => void;
}

function ControlButton({ icon, label, shortcut, size = 0.95, onClick }: ControlButtonProps) {
  return (
    <button
      type="button"
      className={controlButtonClass}
      onClick={onClick}
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
    >
      <Icon path={icon} size={size} />
    </button>
  );
}
