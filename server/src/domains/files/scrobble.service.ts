import type { FileUserStats, FileUserStatsInput, JsonPatchOperation } from '@shoko-ts/contract';
import type { EventBus, WatchedSource } from '../../events/bus.js';
import { notFound, textError, validationError } from '../../http/problem.js';
import { timeSpanText } from '../../media/mediainfo/index.js';
import type { FileState, ScrobbleStore } from './scrobble.store.js';

const TIME_SPAN = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;

/** A .NET TimeSpan text (`[d.]hh:mm:ss[.fffffff]`) in milliseconds; undefined when it is not one. Negative stays negative. */
export function timeSpanMs(text: string): number | undefined {
  const negative = text.startsWith('-');
  const match = TIME_SPAN.exec(negative ? text.slice(1) : text);
  if (!match) return undefined;
  const [, days, hours, minutes, seconds, fraction] = match;
  const ms =
    (((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 +
    Math.round(Number(`0.${fraction ?? '0'}`) * 1000);
  return negative ? -ms : ms;
}

/** The stored columns are 32-bit integers on PostgreSQL: about 24 days of position, 2 billion plays. */
const MAX_STORED = 2 ** 31 - 1;

/** A position in milliseconds that can be stored, or a 400 naming `field`. */
function checkedPosition(ms: number, field: string): number {
  if (ms < 0) throw validationError(field, 'The resume position cannot be negative.');
  if (ms > MAX_STORED) throw validationError(field, 'The resume position is longer than 24 days.');
  return ms;
}

/** The scrobble `resumePosition`: an integer number of 100 ns ticks or a TimeSpan text; 400 naming the field otherwise. */
export function parseResumePosition(text: string): number {
  const trimmed = text.trim();
  const ms = /^-?\d+$/.test(trimmed) ? Math.round(Number(trimmed) / 10_000) : timeSpanMs(trimmed);
  if (ms === undefined || !Number.isFinite(ms))
    throw validationError('resumePosition', `The value '${text}' is not a number of ticks or a time span (hh:mm:ss).`);
  return checkedPosition(ms, 'resumePosition');
}

/** The file's play length from its stored media info, 0 when unknown. */
export function fileDurationMs(mediaInfo: string | null): number {
  try {
    const duration = (JSON.parse(mediaInfo ?? 'null') as { Duration?: unknown } | null)?.Duration;
    return typeof duration === 'string' ? (timeSpanMs(duration) ?? 0) : 0;
  } catch {
    return 0;
  }
}

export const resumePositionText = (ms: number): string | null => (ms > 0 ? timeSpanText(ms / 1000) : null);

export function userStatsModel(state: FileState): FileUserStats {
  return {
    ResumePosition: timeSpanText(state.resume_position_ms / 1000),
    WatchedCount: state.watch_count,
    LastWatchedAt: state.watched_at ? new Date(state.watched_at).toISOString() : null,
    LastUpdatedAt: new Date(state.updated_at).toISOString(),
  };
}

export interface ScrobbleInput {
  event?: string;
  watched?: boolean;
  resumePosition?: string;
}

/**
 * Each user's playback record of a file: players report progress and completion (contract F27), and the watched state
 * carries over to the episodes the file is linked to.
 */
export class ScrobbleService {
  constructor(
    private readonly store: ScrobbleStore,
    private readonly episodes: {
      recordWatched(userId: number, episodeIds: number[], watched: boolean, source: WatchedSource): Promise<void>;
    },
    /** Receives `playback` for every report that names an event (Trakt scrobbles follow them). */
    private readonly bus?: EventBus,
    /** Settings' Playback.WatchedThresholdPercent: a `stop` this far into the file marks it watched. */
    private readonly watchedThresholdPercent: () => number = () => 100,
  ) {}

  private async requireFile(fileId: number) {
    const file = await this.store.file(fileId);
    if (!file) throw notFound('No File entry for the given fileID');
    return file;
  }

  /** Applies one scrobble and answers the text the contract's 202 carries. */
  async scrobble(userId: number, fileId: number, input: ScrobbleInput): Promise<string> {
    const file = await this.requireFile(fileId);
    let position =
      input.resumePosition === undefined || input.resumePosition === '' ? undefined : parseResumePosition(input.resumePosition);
    let watched = input.watched;
    const length = fileDurationMs(file.media_info);
    const progress = position !== undefined && length > 0 ? Math.min(100, (position / length) * 100) : null;
    // A player stopping past the watched threshold has finished it, unless it says otherwise.
    const pastThreshold =
      input.event?.toLowerCase() === 'stop' && watched === undefined && progress !== null && progress >= this.watchedThresholdPercent();
    // Playing to the end is finishing it: the next play starts from the beginning.
    if (position !== undefined && length > 0 && (position >= length || pastThreshold)) {
      watched = true;
      position = 0;
    }
    if (watched === true && position === undefined) position = 0;
    const previous = await this.store.state(userId, fileId);
    const now = new Date().toISOString();
    await this.store.save(userId, fileId, {
      resume_position_ms: position ?? previous?.resume_position_ms ?? 0,
      watched_at: watched === true ? now : watched === false ? null : (previous?.watched_at ?? null),
      watch_count: (previous?.watch_count ?? 0) + (watched === true ? 1 : 0),
      updated_at: now,
    });
    const episodeIds = await this.store.episodeIds(fileId);
    // A player's own report (an event) is the player's; a bare watched toggle is the user's.
    const source: WatchedSource = input.event ? 'Player' : 'User';
    if (watched !== undefined) await this.episodes.recordWatched(userId, episodeIds, watched, source);
    if (input.event)
      this.bus?.emit('playback', {
        userId,
        fileId,
        episodeIds,
        event: input.event.toLowerCase(),
        progress: watched === true ? 100 : progress,
        watched,
      });
    if (watched === true) return 'The file was marked as watched.';
    if (watched === false) return 'The file was marked as unwatched.';
    if (position !== undefined) return 'The file progress was updated.';
    return `The ${input.event && input.event.length <= 32 ? `'${input.event}' ` : ''}event was recorded.`;
  }

  /** POST File/{id}/Watched/{watched} (contract F26). */
  async setWatched(userId: number, fileId: number, watched: boolean): Promise<void> {
    await this.scrobble(userId, fileId, { watched });
  }

  async userStats(userId: number, fileId: number): Promise<FileUserStats> {
    await this.requireFile(fileId);
    const state = await this.store.state(userId, fileId);
    if (!state) throw textError(404, 'No FileUserStats entry for the given fileID for the current user');
    return userStatsModel(state);
  }

  /** PUT File/{id}/UserStats (contract F24): all four fields, defaults for the missing ones. */
  async replaceUserStats(userId: number, fileId: number, input: FileUserStatsInput): Promise<FileUserStats> {
    await this.requireFile(fileId);
    const state = storedState(input);
    await this.store.save(userId, fileId, state);
    return userStatsModel(state);
  }

  /** PATCH File/{id}/UserStats (contract F25): JSON Patch over the current record. */
  async patchUserStats(userId: number, fileId: number, operations: JsonPatchOperation[] | null): Promise<FileUserStats> {
    await this.requireFile(fileId);
    const current = await this.store.state(userId, fileId);
    if (!current) throw textError(404, 'No FileUserStats entry for the given fileID for the current user');
    const state = storedState(applyStatsPatch(userStatsModel(current), operations));
    await this.store.save(userId, fileId, state);
    return userStatsModel(state);
  }
}

const STATS_FIELDS = ['ResumePosition', 'WatchedCount', 'LastWatchedAt', 'LastUpdatedAt'] as const;

/** RFC 6902 over the four flat fields; names match case-insensitively, a leading `/` is optional, `remove` resets. */
function applyStatsPatch(model: FileUserStats, operations: JsonPatchOperation[] | null): FileUserStatsInput {
  if (!Array.isArray(operations)) throw validationError('Body', 'A JSON Patch array is required.');
  const target: Record<string, unknown> = { ...model };
  for (const operation of operations) {
    const name = operation.path.replace(/^\//, '');
    const field = STATS_FIELDS.find((f) => f.toLowerCase() === name.toLowerCase());
    if (!field) throw validationError('path', `The path '${operation.path}' is not a FileUserStats field.`);
    if (operation.op === 'remove') target[field] = field === 'WatchedCount' ? 0 : field === 'LastUpdatedAt' ? undefined : null;
    else if (operation.op === 'add' || operation.op === 'replace') target[field] = operation.value;
    else if (operation.op === 'test') {
      if (String(target[field]) !== String(operation.value))
        throw validationError(field, `The current value of ${field} is not '${String(operation.value)}'.`);
    } else throw validationError('op', `The operation '${operation.op}' is not supported on FileUserStats.`);
  }
  return target as FileUserStatsInput;
}

function dateField(field: string, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw validationError(field, `The value '${String(value)}' is not a date and time.`);
  return new Date(time).toISOString();
}

/** The stored record from a FileUserStats body (PUT, or PATCH after applying it), 400 naming the bad field. */
function storedState(input: FileUserStatsInput): FileState {
  const resume: unknown = input.ResumePosition;
  const position =
    resume === undefined || resume === null || resume === '' ? 0 : typeof resume === 'string' ? timeSpanMs(resume) : undefined;
  if (position === undefined) throw validationError('ResumePosition', `The value '${String(resume)}' is not a time span (hh:mm:ss).`);
  const count: unknown = input.WatchedCount ?? 0;
  const watchCount = typeof count === 'string' && /^\d+$/.test(count) ? Number(count) : count;
  if (typeof watchCount !== 'number' || !Number.isInteger(watchCount) || watchCount < 0 || watchCount > MAX_STORED)
    throw validationError('WatchedCount', `The value '${String(count)}' is not a whole number from 0 to ${MAX_STORED}.`);
  return {
    resume_position_ms: checkedPosition(position, 'ResumePosition'),
    watch_count: watchCount,
    watched_at: dateField('LastWatchedAt', input.LastWatchedAt),
    updated_at: dateField('LastUpdatedAt', input.LastUpdatedAt) ?? new Date().toISOString(),
  };
}
