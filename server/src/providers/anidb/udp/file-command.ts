import type { AniDBUdpClient } from './client.js';

/** fmask 7F00C0D1F0 + amask 0: the 18 fields listed in the protocol reference (§1.5 FILE). */
export const FILE_FMASK = '7F00C0D1F0';
export const FILE_AMASK = '00000000';
const FIELD_COUNT = 18;

export interface AniDBFileInfo {
  fileId: number;
  animeId: number;
  episodeId: number;
  groupId: number;
  myListId: number;
  /** Further episodes this file covers, with the percentage of each. */
  otherEpisodes: Array<{ episodeId: number; percentage: number }>;
  isDeprecated: boolean;
  version: number;
  /** null when AniDB does not say. */
  isCensored: boolean | null;
  isChaptered: boolean;
  crc: 'ok' | 'mismatch' | 'unknown';
  quality: string;
  source: string;
  audioLanguages: string[];
  subtitleLanguages: string[];
  description: string;
  fileName: string;
  myList: { state: number; fileState: number; viewed: boolean; viewedAt: Date | null } | null;
}

const int = (text: string | undefined) => {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};
const languages = (text: string) =>
  text
    .split("'")
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l && l !== 'none');

/** Version from the state flags: 4 → v2, 8 → v3, 16 → v4, 32 → v5, none → v1. */
function versionOf(state: number): number {
  if (state & 32) return 5;
  if (state & 16) return 4;
  if (state & 8) return 3;
  if (state & 4) return 2;
  return 1;
}

/** `eid,pct'eid,pct` (or the looser `eid'pct'eid'pct`) → episode/percentage pairs. */
function otherEpisodes(text: string): AniDBFileInfo['otherEpisodes'] {
  if (!text.trim()) return [];
  const items = text.split("'").filter(Boolean);
  if (items.every((item) => item.includes(','))) {
    return items.map((item) => {
      const [eid, pct] = item.split(',');
      return { episodeId: int(eid), percentage: int(pct) || 100 };
    });
  }
  const pairs: AniDBFileInfo['otherEpisodes'] = [];
  for (let i = 0; i < items.length; i += 2) pairs.push({ episodeId: int(items[i]), percentage: int(items[i + 1]) || 100 });
  return pairs;
}

export function parseFileFields(fields: string[]): AniDBFileInfo {
  if (fields.length < FIELD_COUNT) throw new Error(`AniDB FILE reply has ${fields.length} fields, expected ${FIELD_COUNT}`);
  const state = int(fields[7]);
  const myListId = int(fields[4]);
  const viewDate = int(fields[17]);
  return {
    fileId: int(fields[0]),
    animeId: int(fields[1]),
    episodeId: int(fields[2].split(/[',]/)[0]),
    groupId: int(fields[3]),
    myListId,
    otherEpisodes: otherEpisodes(fields[5]),
    isDeprecated: fields[6] === '1',
    version: versionOf(state),
    isCensored: state & 128 ? true : state & 64 ? false : null,
    isChaptered: (state & 4096) !== 0,
    crc: state & 1 ? 'ok' : state & 2 ? 'mismatch' : 'unknown',
    quality: fields[8],
    source: fields[9],
    audioLanguages: languages(fields[10]),
    subtitleLanguages: languages(fields[11]),
    description: fields[12],
    fileName: fields[13],
    myList: myListId
      ? {
          state: int(fields[14]),
          fileState: int(fields[15]),
          viewed: int(fields[16]) > 0,
          viewedAt: viewDate ? new Date(viewDate * 1000) : null,
        }
      : null,
  };
}

/** Identifies a file by size + ED2K. null when AniDB does not know it (320). */
export async function lookupFile(client: AniDBUdpClient, size: number, ed2k: string): Promise<AniDBFileInfo | null> {
  const reply = await client.send('FILE', { size, ed2k: ed2k.toLowerCase(), fmask: FILE_FMASK, amask: FILE_AMASK });
  if (reply.code === 220) return parseFileFields(reply.rows[0] ?? []);
  if (reply.code === 320) return null;
  throw new Error(`AniDB FILE lookup failed: ${reply.code} ${reply.text}`);
}

export type MyListAddResult = { added: true; myListId: number } | { added: false; alreadyThere: boolean };

/** Adds a file to the user's MyList with the storage state and watched state given. */
export async function addFileToMyList(
  client: AniDBUdpClient,
  file: { size: number; ed2k: string },
  options: { state: number; watchedAt?: Date | null },
): Promise<MyListAddResult> {
  const viewed = options.watchedAt ? { viewed: 1, viewdate: Math.floor(options.watchedAt.getTime() / 1000) } : { viewed: 0 };
  const reply = await client.send('MYLISTADD', { size: file.size, ed2k: file.ed2k.toLowerCase(), state: options.state, ...viewed });
  if (reply.code === 210) return { added: true, myListId: int(reply.rows[0]?.[0]) };
  if (reply.code === 310) return { added: false, alreadyThere: true };
  if (reply.code === 320) return { added: false, alreadyThere: false };
  throw new Error(`AniDB MYLISTADD failed: ${reply.code} ${reply.text}`);
}

/** Removes a file from MyList; false when it was not there. */
export async function removeFileFromMyList(client: AniDBUdpClient, file: { size: number; ed2k: string }): Promise<boolean> {
  const reply = await client.send('MYLISTDEL', { size: file.size, ed2k: file.ed2k.toLowerCase() });
  if (reply.code === 211) return true;
  if (reply.code === 411 || reply.code === 320) return false;
  throw new Error(`AniDB MYLISTDEL failed: ${reply.code} ${reply.text}`);
}

export interface AniDBReleaseGroup {
  id: number;
  name: string;
  shortName: string;
}

/** GROUP: a release group's names; null when AniDB has no such group. */
export async function lookupGroup(client: AniDBUdpClient, groupId: number): Promise<AniDBReleaseGroup | null> {
  const reply = await client.send('GROUP', { gid: groupId });
  if (reply.code === 350) return null;
  if (reply.code !== 250) throw new Error(`AniDB GROUP failed: ${reply.code} ${reply.text}`);
  const row = reply.rows[0] ?? [];
  return { id: int(row[0]), name: row[5] ?? '', shortName: row[6] ?? '' };
}
