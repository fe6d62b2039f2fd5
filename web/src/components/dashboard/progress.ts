import type { DashboardEpisode } from '@shoko-ts/contract';

/** Seconds of a .NET TimeSpan text (`[-][d.]hh:mm:ss[.fffffff]`), or null when it is not one. */
export function timeSpanSeconds(span: string | null | undefined): number | null {
  const match = span?.match(/^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/);
  if (!match) return null;
  const [, negative, days = '0', hours, minutes, seconds, fraction = '0'] = match;
  const total = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds) + Number(`0.${fraction}`);
  return negative ? -total : total;
}

/** `m:ss`, or `h:mm:ss` from an hour up. */
export function clockText(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  return h ? `${h}:${pad(m)}:${pad(whole % 60)}` : `${m}:${pad(whole % 60)}`;
}

export interface WatchProgress {
  /** 0–1; 0 when the length is unknown. */
  fraction: number;
  label: string;
}

/** Where playback of the episode's file stopped, from its resume position and length; null without a position. */
export function watchProgress(episode: Pick<DashboardEpisode, 'ResumePosition' | 'Duration'>): WatchProgress | null {
  const position = timeSpanSeconds(episode.ResumePosition);
  if (!position || position <= 0) return null;
  const length = timeSpanSeconds(episode.Duration) ?? 0;
  if (length <= 0) return { fraction: 0, label: `Resume at ${clockText(position)}` };
  return { fraction: Math.min(1, position / length), label: `${clockText(position)} / ${clockText(length)}` };
}
