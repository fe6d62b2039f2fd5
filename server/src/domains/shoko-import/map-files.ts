import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ShokoPathMapping } from '@shoko-ts/contract';
import { normalizeFolderPath, systemLocation } from '../import-folders/index.js';
import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import type { MapContext } from './map-context.js';
import type { MediaBlobResult } from './media-blob-pool.js';
import { flag, isWindowsPath, shokoTime, text, upperHex } from './shoko-values.js';

/** CrossRef_File_Episode.CrossRefSource: 2 = the user linked it (0 automatic, 1 AniDB, 3 web cache all came from lookups). */
const USER_LINK = 2;

const MEDIA_FAILURES = {
  'unknown-version': "Shoko's media info is in an older format",
  undecodable: "Shoko's media info cannot be decoded",
  'not-media': "Shoko's media info has no audio or video track",
} as const;

/** The location on this machine of a Shoko path: the longest matching `From` prefix wins (case-insensitive on Windows paths). */
export function mapShokoPath(shokoPath: string, pathMap: ShokoPathMapping[]): { path: string; mapped: boolean } {
  const windows = isWindowsPath(shokoPath);
  const comparable = (p: string) => (isWindowsPath(p) ? p.replace(/\//g, '\\').toLowerCase() : p);
  const source = comparable(shokoPath);
  const best = [...pathMap].filter((m) => source.startsWith(comparable(m.From))).sort((a, b) => b.From.length - a.From.length)[0];
  if (!best) return { path: shokoPath, mapped: false };
  let rest = shokoPath.slice(best.From.length);
  if (windows) rest = rest.replace(/\\/g, '/');
  rest = rest.replace(/^\/+/, '');
  return { path: path.join(best.To, rest), mapped: true };
}

/** Import folders (their paths mapped onto this machine) and the files in them, hashes, media info and locations. */
export function mapFiles(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const folderRows = shoko.all('ImportFolder', [
    'ImportFolderID',
    'ImportFolderName',
    'ImportFolderLocation',
    'IsDropSource',
    'IsDropDestination',
    'IsWatched',
  ]);
  const folders = report.kind('Import folders', folderRows.length);
  const windowsFolders = new Set<number>();
  const folderOut: Array<RowOf<'import_folders'>> = [];
  for (const row of folderRows) {
    const id = Number(row.ImportFolderID);
    const shokoPath = text(row.ImportFolderLocation).trim();
    const mapped = mapShokoPath(shokoPath, ctx.pathMap);
    if (isWindowsPath(shokoPath)) windowsFolders.add(id);
    if (!mapped.mapped && isWindowsPath(shokoPath)) {
      report.block(
        `the import folder "${text(row.ImportFolderName)}" is at ${shokoPath} on the Shoko machine: add a path map from it to where it is here.`,
      );
    } else if (!path.isAbsolute(mapped.path)) {
      report.block(`the import folder "${text(row.ImportFolderName)}" has the path ${mapped.path}, which is not an absolute path here.`);
    }
    const localPath = path.isAbsolute(mapped.path) ? normalizeFolderPath(mapped.path) : mapped.path;
    const refusal = path.isAbsolute(mapped.path) ? systemLocation(localPath, ctx.home, true) : { refused: false as const };
    if (refusal.refused) report.block(`the import folder "${text(row.ImportFolderName)}" at ${localPath}: ${refusal.reason}`);
    else if (path.isAbsolute(mapped.path) && !existsSync(localPath))
      report.note(
        `The import folder "${text(row.ImportFolderName)}" (${localPath}) is not there now; its files keep their records and are found again when it is.`,
      );
    folderOut.push({
      id,
      name: text(row.ImportFolderName) || `Import folder ${id}`,
      path: localPath,
      is_drop_source: flag(row.IsDropSource),
      is_drop_destination: flag(row.IsDropDestination),
      watch_for_new_files: flag(row.IsWatched),
    });
    ids.importFolders.add(id);
    folders.took();
  }
  plan.add('import_folders', folderOut);

  const fileRows = shoko.all('VideoLocal', [
    'VideoLocalID',
    'Hash',
    'CRC32',
    'MD5',
    'SHA1',
    'FileSize',
    'IsIgnored',
    'IsVariation',
    'DateTimeCreated',
    'DateTimeUpdated',
    'DateTimeImported',
    'MediaVersion',
    'MediaBlob',
    'LastAVDumped',
    'LastAVDumpVersion',
  ]);
  const placeRows = shoko.all('VideoLocal_Place', ['VideoLocal_Place_ID', 'VideoLocalID', 'FilePath', 'ImportFolderID']);
  const placesByFile = new Map<number, typeof placeRows>();
  for (const place of placeRows) {
    const list = placesByFile.get(Number(place.VideoLocalID)) ?? [];
    list.push(place);
    placesByFile.set(Number(place.VideoLocalID), list);
  }
  const files = report.kind('Files', fileRows.length);
  const fileOut: Array<RowOf<'files'>> = [];
  const avdumps: Array<RowOf<'file_avdumps'>> = [];
  const seenContent = new Set<string>();
  for (const row of fileRows) {
    const id = Number(row.VideoLocalID);
    const ed2k = upperHex(row.Hash);
    const size = Number(row.FileSize ?? 0);
    if (!/^[0-9A-F]{32}$/.test(ed2k)) {
      files.skipped('Shoko had not hashed it yet: the next scan of its folder hashes it', id);
      continue;
    }
    if (!placesByFile.get(id)?.some((p) => ids.importFolders.has(Number(p.ImportFolderID)))) {
      files.skipped('it has no location in an import folder', id);
      continue;
    }
    const key = `${ed2k}/${size}`;
    if (seenContent.has(key)) {
      files.skipped('another file record has the same content', id);
      continue;
    }
    seenContent.add(key);
    const created = shokoTime(row.DateTimeCreated) ?? ctx.now;
    fileOut.push({
      id,
      size,
      ed2k,
      ed2k_alternate: null,
      crc32: upperHex(row.CRC32),
      md5: upperHex(row.MD5),
      sha1: upperHex(row.SHA1),
      is_ignored: flag(row.IsIgnored),
      is_variation: flag(row.IsVariation),
      // Decoded on worker threads meanwhile, filled in when the files are written (mediaInfoOfImportedFiles).
      media_info: null,
      imported_at: shokoTime(row.DateTimeImported),
      created_at: created,
      updated_at: shokoTime(row.DateTimeUpdated) ?? created,
    });
    const dumped = shokoTime(row.LastAVDumped);
    if (dumped) avdumps.push({ file_id: id, last_dumped_at: dumped, last_version: text(row.LastAVDumpVersion) });
    ids.files.set(id, { ed2k, size });
    files.took();
  }
  plan.add('files', fileOut);
  plan.add('file_avdumps', avdumps);

  const locations = report.kind('File locations', placeRows.length);
  const seenPaths = new Set<string>();
  const locationOut: Array<RowOf<'file_locations'>> = [];
  for (const row of placeRows) {
    const id = Number(row.VideoLocal_Place_ID);
    const folderId = Number(row.ImportFolderID);
    if (!ids.files.has(Number(row.VideoLocalID))) {
      locations.skipped('its file was not imported', id);
      continue;
    }
    if (!ids.importFolders.has(folderId)) {
      locations.skipped('its import folder does not exist', id);
      continue;
    }
    let relative = text(row.FilePath);
    if (windowsFolders.has(folderId)) relative = relative.replace(/\\/g, '/');
    relative = relative.replace(/^\/+/, '');
    const key = `${folderId}/${relative}`;
    if (!relative || seenPaths.has(key)) {
      locations.skipped(relative ? 'another location has the same path' : 'it has no path', id);
      continue;
    }
    seenPaths.add(key);
    locationOut.push({
      id,
      file_id: Number(row.VideoLocalID),
      import_folder_id: folderId,
      relative_path: relative,
      is_accessible: 1,
      mtime_ms: null,
    });
    locations.took();
  }
  plan.add('file_locations', locationOut);
  mapAniDBFiles(ctx);
}

/** The decoded media info of the imported files, each decoded blob counted as imported or skipped. */
export function mediaInfoOfImportedFiles(ctx: MapContext, media: Map<number, MediaBlobResult>): Array<{ id: number; json: string }> {
  const tally = ctx.report.kind('Media info of files', media.size);
  const rows: Array<{ id: number; json: string }> = [];
  for (const result of media.values()) {
    if (!ctx.ids.files.has(result.id)) tally.skipped('its file was not imported', result.id);
    else if ('json' in result) {
      rows.push({ id: result.id, json: result.json });
      tally.took();
    } else tally.skipped(`${MEDIA_FAILURES[result.failure]}; it is read from the file again when needed`, result.id);
  }
  return rows;
}

/** What AniDB said of the files (also the lookups that found nothing), their release groups and the episode links. */
function mapAniDBFiles(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const contents = new Set([...ids.files.values()].map((c) => `${c.ed2k}/${c.size}`));
  const linkRows = shoko.all('CrossRef_File_Episode', [
    'Hash',
    'FileSize',
    'CrossRefSource',
    'AnimeID',
    'EpisodeID',
    'Percentage',
    'EpisodeOrder',
  ]);
  const animeOfContent = new Map<string, number>();
  for (const row of linkRows) {
    const key = `${upperHex(row.Hash)}/${Number(row.FileSize)}`;
    if (!animeOfContent.has(key)) animeOfContent.set(key, Number(row.AnimeID));
  }

  const groupRows = shoko.all('AniDB_ReleaseGroup', ['GroupID', 'GroupName', 'GroupNameShort']);
  const groups = report.kind('AniDB release groups', groupRows.length);
  plan.add(
    'anidb_release_groups',
    keepRows(groups, groupRows, {
      key: (row) => Number(row.GroupID),
      refuse: (_row, id) => (id ? undefined : 'no group id'),
      duplicate: 'duplicate release group row',
      map: (row, id) => ({ id, name: text(row.GroupName), short_name: text(row.GroupNameShort), updated_at: ctx.now }),
    }),
  );

  const languages = (table: string) => {
    const byFile = new Map<number, string[]>();
    for (const row of shoko.all(table, ['FileID', 'LanguageName'])) {
      const list = byFile.get(Number(row.FileID)) ?? [];
      list.push(text(row.LanguageName).toLowerCase());
      byFile.set(Number(row.FileID), list);
    }
    return byFile;
  };
  const audio = languages('CrossRef_Languages_AniDB_File');
  const subtitles = languages('CrossRef_Subtitles_AniDB_File');
  const anidbRows = shoko.all('AniDB_File', [
    'FileID',
    'Hash',
    'FileSize',
    'GroupID',
    'File_Source',
    'File_Description',
    'DateTimeUpdated',
    'FileName',
    'FileVersion',
    'IsDeprecated',
    'IsCensored',
    'IsChaptered',
  ]);
  const anidbFiles = report.kind('AniDB file records', anidbRows.length);
  const groupOfContent = new Map<string, number>();
  const anidbOut: Array<RowOf<'anidb_files'>> = [];
  for (const row of anidbRows) {
    const ed2k = upperHex(row.Hash);
    const size = Number(row.FileSize ?? 0);
    const key = `${ed2k}/${size}`;
    if (!contents.has(key)) {
      anidbFiles.skipped('no imported file has this content', Number(row.FileID));
      continue;
    }
    if (groupOfContent.has(key)) {
      anidbFiles.skipped('duplicate AniDB file record', Number(row.FileID));
      continue;
    }
    const fileId = Number(row.FileID);
    groupOfContent.set(key, Number(row.GroupID ?? 0));
    anidbOut.push({
      ed2k,
      size,
      file_id: fileId,
      anime_id: animeOfContent.get(key) ?? null,
      group_id: Number(row.GroupID ?? 0),
      source: text(row.File_Source),
      version: Number(row.FileVersion ?? 1) || 1,
      is_deprecated: flag(row.IsDeprecated),
      is_censored: row.IsCensored === null || row.IsCensored === undefined ? null : flag(row.IsCensored),
      is_chaptered: flag(row.IsChaptered),
      file_name: text(row.FileName),
      description: text(row.File_Description),
      audio_languages: JSON.stringify(audio.get(fileId) ?? []),
      subtitle_languages: JSON.stringify(subtitles.get(fileId) ?? []),
      lookup_attempts: 1,
      looked_up_at: shokoTime(row.DateTimeUpdated) ?? ctx.now,
    });
    anidbFiles.took();
  }
  // Lookups AniDB answered with "no such file": kept so that the retry schedule goes on from Shoko's last try.
  const lookups = new Map<string, { attempts: number; last: string }>();
  for (const row of shoko.all('AniDB_FileUpdate', ['Hash', 'FileSize', 'HasResponse', 'UpdatedAt'])) {
    const key = `${upperHex(row.Hash)}/${Number(row.FileSize)}`;
    if (!contents.has(key) || groupOfContent.has(key) || flag(row.HasResponse)) continue;
    const at = shokoTime(row.UpdatedAt) ?? ctx.now;
    const seen = lookups.get(key);
    lookups.set(key, { attempts: (seen?.attempts ?? 0) + 1, last: seen && seen.last > at ? seen.last : at });
  }
  for (const [key, lookup] of lookups) {
    const [ed2k, size] = key.split('/');
    anidbOut.push({
      ed2k,
      size: Number(size),
      file_id: null,
      anime_id: null,
      group_id: 0,
      source: '',
      version: 1,
      is_deprecated: 0,
      is_censored: null,
      is_chaptered: 0,
      file_name: '',
      description: '',
      audio_languages: '[]',
      subtitle_languages: '[]',
      lookup_attempts: lookup.attempts,
      looked_up_at: lookup.last,
    });
  }
  plan.add('anidb_files', anidbOut);

  const links = report.kind('File-episode links', linkRows.length);
  const contentOf = (row: { Hash?: unknown; FileSize?: unknown }) => `${upperHex(row.Hash)}/${Number(row.FileSize ?? 0)}`;
  plan.add(
    'file_episode_links',
    keepRows(links, linkRows, {
      key: (row) => `${contentOf(row)}/${Number(row.EpisodeID)}`,
      refuse: (row) => (contents.has(contentOf(row)) ? undefined : 'no imported file has this content'),
      duplicate: 'duplicate link',
      example: (row) => `${upperHex(row.Hash)}/${Number(row.EpisodeID)}`,
      map: (row) => {
        const group = groupOfContent.get(contentOf(row));
        return {
          ed2k: upperHex(row.Hash),
          size: Number(row.FileSize ?? 0),
          anime_id: Number(row.AnimeID),
          episode_id: Number(row.EpisodeID),
          percentage: Number(row.Percentage ?? 100) || 100,
          ordering: Number(row.EpisodeOrder ?? 0),
          source: Number(row.CrossRefSource) === USER_LINK ? ('User' as const) : ('AniDB' as const),
          release_group_id: group ? group : null,
        };
      },
    }),
  );
  if (!linkRows.length) return;
  const userLinks = linkRows.filter((r) => Number(r.CrossRefSource) === USER_LINK).length;
  if (userLinks) report.note(`${userLinks} file-episode link(s) were made by hand in Shoko; they stay manual links here.`);
}
