import { useEffect, useState, type RefObject } from 'react';
import type { PlayerState } from './PlayerControls';

export interface VideoState extends PlayerState {
  /** Waiting for data (start, seek, a slow network). */
  waiting: boolean;
  ended: boolean;
  /** The element's own failure (a format it could not decode after all), with MediaError's code. */
  mediaError: { code: number; message: string } | null;
}

const VOLUME_KEY = 'shoko-ts.player.volume';

export function storedVolume(): number {
  const value = Number(localStorage.getItem(VOLUME_KEY) ?? '1');
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
}

function read(video: HTMLVideoElement, waiting: boolean): VideoState {
  return {
    playing: !video.paused && !video.ended,
    currentTime: video.currentTime,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
    volume: video.volume,
    muted: video.muted,
    speed: video.playbackRate,
    fullscreen: !!document.fullscreenElement,
    waiting,
    ended: video.ended,
    mediaError: video.error ? { code: video.error.code, message: video.error.message } : null,
  };
}

const EVENTS = [
  'play',
  'pause',
  'playing',
  'timeupdate',
  'durationchange',
  'volumechange',
  'ratechange',
  'ended',
  'error',
  'emptied',
  'seeked',
];

/** The `<video>` element's state as React state, following its events; the volume is kept between visits. */
export function useVideoState(videoRef: RefObject<HTMLVideoElement | null>, fallbackDuration: number): VideoState {
  const [state, setState] = useState<VideoState>({
    playing: false,
    currentTime: 0,
    duration: fallbackDuration,
    volume: 1,
    muted: false,
    speed: 1,
    fullscreen: false,
    waiting: false,
    ended: false,
    mediaError: null,
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = storedVolume();
    let waiting = false;
    const update = () => {
      const next = read(video, waiting);
      setState({ ...next, duration: next.duration || fallbackDuration });
    };
    const controller = new AbortController();
    const options = { signal: controller.signal };
    for (const type of EVENTS) video.addEventListener(type, update, options);
    const setWaiting = (value: boolean) => () => {
      waiting = value;
      update();
    };
    video.addEventListener('waiting', setWaiting(true), options);
    video.addEventListener('seeking', setWaiting(true), options);
    video.addEventListener('playing', setWaiting(false), options);
    video.addEventListener('canplay', setWaiting(false), options);
    video.addEventListener('seeked', setWaiting(false), options);
    video.addEventListener('volumechange', () => localStorage.setItem(VOLUME_KEY, String(video.volume)), options);
    document.addEventListener('fullscreenchange', update, options);
    return () => controller.abort();
  }, [videoRef, fallbackDuration]);

  return state;
}
