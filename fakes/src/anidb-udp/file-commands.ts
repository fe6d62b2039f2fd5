import type { FakeUdpCommand } from './commands.js';

/** What the fake AniDB knows about one file (invented data). */
export interface FakeAniDBFile {
  size: number;
  ed2k: string;
  fileId: number;
  animeId: number;
  episodeId: number;
  groupId?: number;
  otherEpisodes?: Array<{ episodeId: number; percentage: number }>;
  /** AniDB state flags (1 CRC ok, 4 v2, 128 censored, …). */
  state?: number;
  source?: string;
  audio?: string[];
  subtitles?: string[];
  fileName?: string;
}

const key = (size: number | string, ed2k: string) => `${size}:${ed2k.toLowerCase()}`;

/** An invented release group for GROUP. */
export interface FakeReleaseGroup {
  id: number;
  name: string;
  shortName: string;
}

/** FILE / MYLISTADD / MYLISTDEL over a fixed set of files (and GROUP over their groups), with one MyList for the fake's lifetime. */
export function fileCommands(files: FakeAniDBFile[], groups: FakeReleaseGroup[] = []): Record<string, FakeUdpCommand> {
  const bySizeAndHash = new Map(files.map((file) => [key(file.size, file.ed2k), file]));
  const myList = new Map<string, number>();
  let nextListId = 1000;
  return {
    FILE: {
      needsSession: true,
      handle({ params }) {
        const file = bySizeAndHash.get(key(params.size ?? '', params.ed2k ?? ''));
        if (!file) return { code: 320, text: 'NO SUCH FILE' };
        const lid = myList.get(key(file.size, file.ed2k)) ?? 0;
        const other = (file.otherEpisodes ?? []).map((o) => `${o.episodeId},${o.percentage}`).join("'");
        const row = [
          file.fileId,
          file.animeId,
          file.episodeId,
          file.groupId ?? 0,
          lid,
          other,
          0,
          file.state ?? 1,
          'high',
          file.source ?? 'www',
          (file.audio ?? ['japanese']).join("'"),
          (file.subtitles ?? ['english']).join("'"),
          '',
          file.fileName ?? `file-${file.fileId}.mkv`,
          lid ? 1 : 0,
          0,
          0,
          0,
        ];
        return { code: 220, text: 'FILE', rows: [row] };
      },
    },
    MYLISTADD: {
      needsSession: true,
      handle({ params }) {
        const k = key(params.size ?? '', params.ed2k ?? '');
        if (!bySizeAndHash.has(k)) return { code: 320, text: 'NO SUCH FILE' };
        if (params.edit === '1')
          return myList.has(k) ? { code: 311, text: 'MYLIST ENTRY EDITED' } : { code: 411, text: 'NO SUCH MYLIST ENTRY' };
        if (myList.has(k))
          return { code: 310, text: 'FILE ALREADY IN MYLIST', rows: [[myList.get(k)!, 0, 0, 0, 0, 0, 1, 0, '', '', 0, 0]] };
        myList.set(k, nextListId++);
        return { code: 210, text: 'MYLIST ENTRY ADDED', rows: [[myList.get(k)!]] };
      },
    },
    GROUP: {
      needsSession: true,
      handle({ params }) {
        const group = groups.find((g) => String(g.id) === params.gid);
        if (!group) return { code: 350, text: 'NO SUCH GROUP' };
        return {
          code: 250,
          text: 'GROUP',
          rows: [[group.id, 700, 12, 3, 40, group.name, group.shortName, '', '', '', '', 0, 0, 0, 0, 0, '']],
        };
      },
    },
    MYLISTDEL: {
      needsSession: true,
      handle({ params }) {
        return myList.delete(key(params.size ?? '', params.ed2k ?? ''))
          ? { code: 211, text: 'MYLIST ENTRY DELETED', rows: [[1]] }
          : { code: 411, text: 'NO SUCH MYLIST ENTRY' };
      },
    },
  };
}
