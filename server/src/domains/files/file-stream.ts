import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { MediaInfo } from '@shoko-ts/contract';
import { emptyError, notFound, textError } from '../../http/problem.js';
import type { FilesStore, LocationWithFolder } from './files.store.js';

/**
 * Serving a file's bytes to players (contract files.md F18–F21): which physical file answers, confined to its import
 * folder, and the HTTP range and validator rules. The routes (file-stream.routes.ts) stream it with fs.createReadStream.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.mkv': 'video/x-matroska',
  '.mk3d': 'video/x-matroska',
  '.mka': 'audio/x-matroska',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.avi': 'video/x-msvideo',
  '.webm': 'video/webm',
  '.ogm': 'video/ogg',
  '.ogv': 'video/ogg',
  '.ts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.mpg': 'video/mpeg',
  '.mpeg': 'video/mpeg',
  '.wmv': 'video/x-ms-wmv',
  '.flv': 'video/x-flv',
  '.ass': 'text/x-ssa',
  '.ssa': 'text/x-ssa',
  '.srt': 'application/x-subrip',
  '.vtt': 'text/vtt',
  '.sub': 'text/plain',
  '.idx': 'text/plain',
};

/** The Content-Type for a file name by its extension; unknown ones are `application/octet-stream`. */
export const contentTypeOf = (name: string): string => CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';

/** A physical file that may be served: its real path (inside its import folder), its stat and the download name. */
export interface ServedFile {
  realPath: string;
  name: string;
  stat: Stats;
}

/**
 * The real path of `target` when it is a regular file whose real location lies inside the real `root`; null when it
 * is missing, not a file, or a link leading out of the folder.
 */
export async function confinedFile(root: string, target: string): Promise<{ realPath: string; stat: Stats } | null> {
  try {
    const realRoot = await fs.realpath(root);
    const realPath = await fs.realpath(target);
    if (!realPath.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep)) return null;
    const stat = await fs.stat(realPath);
    return stat.isFile() ? { realPath, stat } : null;
  } catch {
    return null;
  }
}

/** A strong validator of a file's current bytes: size and modification time. */
export const entityTagOf = (stat: Stats): string => `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One byte range (`a-b`, `a-`, `-n`) is served as 206. A header that is not a valid byte-range set, or asks for more
 * than one range, is ignored (the whole file, 200), as HTTP allows. A valid single range that lies beyond the end is
 * unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const specs = match[1].split(',').map((spec) => spec.trim());
  if (specs.length !== 1) return { kind: 'full' };
  const range = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]);
  if (!range || (range[1] === '' && range[2] === '')) return { kind: 'full' };
  if (range[1] === '') {
    const suffix = Number(range[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(range[1]);
  const last = range[2] === '' ? Infinity : Number(range[2]);
  if (last < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(last, size - 1) };
}

/** Does an `If-Range` value still describe the file? An entity tag must match strongly; a date must equal Last-Modified. */
export function ifRangeMatches(value: string, stat: Stats): boolean {
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return trimmed === entityTagOf(stat);
  const date = Date.parse(trimmed);
  return !Number.isNaN(date) && date === Math.floor(stat.mtimeMs / 1000) * 1000;
}

/** `If-None-Match` (weak comparison, `*`) or, without it, `If-Modified-Since`: may the client keep its copy (304)? */
export function notModified(headers: { 'if-none-match'?: string; 'if-modified-since'?: string }, stat: Stats): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const tag = entityTagOf(stat);
    return noneMatch.split(',').some((candidate) => {
      const t = candidate.trim();
      return t === '*' || t.replace(/^W\//, '') === tag;
    });
  }
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const date = Date.parse(since);
  return !Number.isNaN(date) && Math.floor(stat.mtimeMs / 1000) * 1000 <= date;
}

/** `Content-Disposition` naming the download: an ASCII fallback and the UTF-8 name. */
export function attachmentHeader(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const NO_PHYSICAL_FILE = 'Unable to find physical file for reading the stream data.';

/** Which physical file answers a stream request, and the external subtitle listing. */
export class FileStreams {
  /** Marks a file watched for a user (scrobble domain), for `streamPositionScrobbling`. */
  markWatched: ((userId: number, fileId: number) => Promise<void>) | null = null;
  /** The user a signed playback token (`?token=`) speaks for on this file, or null (playback domain). */
  tokenUser: ((token: string | undefined, fileId: number) => Promise<number | null>) | null = null;

  constructor(private readonly store: FilesStore) {}

  private async locations(fileId: number): Promise<LocationWithFolder[]> {
    if (!(await this.store.file(fileId))) throw notFound('No File entry for the given fileID');
    return this.store.locationsOfFiles([fileId]);
  }

  /**
   * F18/F19: the first location that exists on disk inside its import folder; with `filename`, a location with that
   * file name first, and that name as the download name. 500 text when no copy can be read.
   */
  async video(fileId: number, filename?: string): Promise<ServedFile> {
    const locations = await this.locations(fileId);
    const ordered = filename
      ? [
          ...locations.filter((l) => path.basename(l.relative_path) === filename),
          ...locations.filter((l) => path.basename(l.relative_path) !== filename),
        ]
      : locations;
    for (const location of ordered) {
      const found = await confinedFile(location.folder_path, path.join(location.folder_path, location.relative_path));
      if (found) return { ...found, name: filename ?? path.basename(location.relative_path) };
    }
    throw textError(500, NO_PHYSICAL_FILE);
  }

  /** F21: a file beside any copy of the video (a plain file name, no folders), inside the import folder; else 404. */
  async sibling(fileId: number, filename: string): Promise<ServedFile> {
    const locations = await this.locations(fileId);
    if (!filename || filename === '.' || filename === '..' || /[\\/\0]/.test(filename)) throw emptyError(404);
    for (const location of locations) {
      const folder = path.dirname(path.join(location.folder_path, location.relative_path));
      const found = await confinedFile(location.folder_path, path.join(folder, filename));
      if (found) return { ...found, name: filename };
    }
    throw emptyError(404);
  }

  /** F20: the external subtitles the file's media info lists, as links to F21. */
  async subtitleListing(fileId: number, linkOf: (name: string) => string): Promise<string> {
    const row = await this.store.file(fileId);
    if (!row) throw notFound('No File entry for the given fileID');
    let media: MediaInfo | null = null;
    try {
      media = row.media_info ? (JSON.parse(row.media_info) as MediaInfo) : null;
    } catch {
      media = null;
    }
    const names = (media?.Subtitles ?? []).filter((s) => s.IsExternal && s.ExternalFilename).map((s) => s.ExternalFilename!);
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    return `<table>${names.map((name) => `<tr><td><a href="${escape(linkOf(name))}"/></td></tr>`).join('')}</table>`;
  }
}
