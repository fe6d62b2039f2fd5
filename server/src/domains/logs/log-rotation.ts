import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface LogRotatorSettings {
  Enabled: boolean;
  Zip: boolean;
  Delete: boolean;
  /** Days to keep, as text (the settings API types it as a string); empty or non-positive means never delete. */
  Delete_Days: string;
}

const LOG_FILE = /^shoko-(\d{4}-\d{2}-\d{2})\.log(\.gz)?$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` in server local time: daily files follow the clock of the machine they live on. */
export function localDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const logFileName = (day: string) => `shoko-${day}.log`;

/** Start of the next local day, when the current file is closed and the rotation runs again. */
export function nextDayStart(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
}

function keepDays(text: string): number | null {
  const days = Number.parseInt(text.trim(), 10);
  return Number.isFinite(days) && days > 0 ? days : null;
}

/**
 * Deletes daily files older than the retention (when Delete is on) and gzips every earlier day's plain file (when Zip
 * is on). Today's file is never touched. Returns the names it deleted and compressed, for logging.
 */
export async function rotateLogFiles(
  dir: string,
  settings: LogRotatorSettings,
  now: Date,
): Promise<{ deleted: string[]; compressed: string[] }> {
  const result = { deleted: [] as string[], compressed: [] as string[] };
  if (!settings.Enabled) return result;
  const today = localDay(now);
  const days = settings.Delete ? keepDays(settings.Delete_Days) : null;
  const cutoff = days === null ? null : localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - days));

  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return result;
  }
  for (const name of names.sort()) {
    const match = LOG_FILE.exec(name);
    if (!match) continue;
    const [, day, gz] = match;
    if (day >= today) continue;
    const file = path.join(dir, name);
    if (cutoff !== null && day < cutoff) {
      await unlink(file);
      result.deleted.push(name);
    } else if (settings.Zip && !gz) {
      // Appending keeps an earlier archive of the same day intact: concatenated gzip members form a valid gzip file.
      await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`, { flags: 'a' }));
      await unlink(file);
      result.compressed.push(name);
    }
  }
  return result;
}
