import fs from 'node:fs/promises';
import os from 'node:os';
import type { MediaInfo } from '@shoko-ts/contract';
import { MediaInfoError } from './errors.js';
import { findExternalSubtitles } from './external-subtitles.js';
import { toMediaInfoModel } from './mapping.js';
import { MediaInfoWorkerPool } from './worker-pool.js';

export { MediaInfoError, type MediaInfoFailure } from './errors.js';
export { findExternalSubtitles, type ExternalSubtitleOptions } from './external-subtitles.js';
export { timeSpanText, toMediaInfoModel } from './mapping.js';
export { standardResolution } from './resolution.js';

export interface ReadMediaInfoOptions {
  /** Time limit of the analysis (settings `Import.MediaInfoTimeoutMinutes`); ≤ 0 means none. Default 5 minutes. */
  timeoutMs?: number;
  /** Add subtitle files found beside the video to `Subtitles` (default true). */
  externalSubtitles?: boolean;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

let pool: MediaInfoWorkerPool | null = null;

/**
 * Reads a file with MediaInfoLib (WebAssembly, in worker threads) and maps it to the contract's MediaInfo model
 * (files.md §1.8). MediaInfoLib reads only the parts of the file it asks for. Rejects with a MediaInfoError whose
 * `reason` says what went wrong: missing file, not a media file, time limit reached, MediaInfoLib crashed.
 */
export async function readMediaInfo(path: string, options: ReadMediaInfoOptions = {}): Promise<MediaInfo> {
  const stats = await fs.stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new MediaInfoError(
      error.code === 'ENOENT' ? 'not-found' : 'unreadable',
      path,
      error.code === 'ENOENT' ? 'file not found' : error.message,
    );
  });
  if (!stats.isFile()) throw new MediaInfoError('unreadable', path, 'not a regular file');

  pool ??= new MediaInfoWorkerPool(Math.min(2, os.availableParallelism()));
  const document = await pool.analyse(path, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const model = toMediaInfoModel(document, path);
  if (options.externalSubtitles !== false) {
    const internal = model.Subtitles;
    const external = await findExternalSubtitles(path, {
      firstId: Math.max(0, ...[...model.Video, ...model.Audio, ...internal].map((stream) => stream.ID)) + 1,
      firstOrder: Math.max(-1, ...[...model.Video, ...model.Audio, ...internal].map((stream) => stream.Order)) + 1,
    });
    model.Subtitles = [...internal, ...external];
  }
  return model;
}

/** Stops the MediaInfo workers (server shutdown); analyses still running are rejected. A later read starts anew. */
export async function closeMediaInfo(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}
