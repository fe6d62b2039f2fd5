import { AniDBUpdateType, type AniDBState, type AnidbBannedStatus, type AnidbBanStatus } from '@shoko-ts/contract';
import { formatTimeSpan } from '../../http/time-span.js';

/** How long AniDB bans last when the state does not say: 1.5 h for UDP, 12 h for HTTP (Shoko's defaults). */
const DEFAULT_BAN_SECONDS = { udp: 90 * 60, http: 12 * 60 * 60 };

const UPDATE_TYPE_NAMES = Object.fromEntries(Object.entries(AniDBUpdateType).map(([name, value]) => [value, name])) as Record<
  number,
  AnidbBannedStatus['Type']
>;

/** `2026-05-01T12:30:00.000+02:00`: the instant in the server's local time with its offset, as Shoko writes it. */
export function localIsoWithOffset(date: Date): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function bannedStatus(state: AniDBState, defaultSeconds: number): AnidbBannedStatus {
  const seconds = state.PauseTimeSecs > 0 ? state.PauseTimeSecs : defaultSeconds;
  const updated = new Date(state.UpdateTime);
  // A refused login (InvalidSession) has no length: it lasts until the credentials change.
  const timed = state.Value && state.UpdateType !== AniDBUpdateType.InvalidSession;
  return {
    Type: UPDATE_TYPE_NAMES[state.UpdateType] ?? 'None',
    IsBanned: state.Value,
    BanDuration: timed ? formatTimeSpan(seconds * 1000) : null,
    LastUpdatedAt: localIsoWithOffset(Number.isNaN(updated.getTime()) ? new Date() : updated),
  };
}

/**
 * `GET AniDB/BanStatus` (contract server.md §10.2) from the states the aggregate hub also sends: the REST form names
 * the update type and writes local time, where the hub sends numbers and UTC.
 */
export function banStatus([udp, http]: [AniDBState, AniDBState]): AnidbBanStatus {
  return { UDP: bannedStatus(udp, DEFAULT_BAN_SECONDS.udp), HTTP: bannedStatus(http, DEFAULT_BAN_SECONDS.http) };
}
