import fs from 'node:fs/promises';
import path from 'node:path';
import type { TextStream } from '@shoko-ts/contract';
import { subtitleFileCodec } from './codecs.js';
import { lookupLanguage, streamLanguage } from './languages.js';

const SUBTITLE_EXTENSIONS = new Set(['srt', 'ass', 'ssa', 'sub', 'idx', 'vtt']);

export interface ExternalSubtitleOptions {
  /** `ID` of the first stream found; the rest count up (pass one past the container's own text streams). */
  firstId?: number;
  /** `Order` of the first stream found. */
  firstOrder?: number;
}

/** A file-name part such as `en`, `jpn`, `pt-BR` or `English` that names a language. */
function tokenLanguage(token: string): string | null {
  if (!/^[a-z]{2,3}(?:[-_][a-z0-9]{2,4})?$/i.test(token) && !/^[a-z]{4,}$/i.test(token)) return null;
  return lookupLanguage(token) ? token : null;
}

/**
 * What the name between the video's base name and the extension says, e.g. `Show.Signs.en.forced.ass` →
 * language `en`, forced, title `Signs`. The first part naming a language wins; `forced`/`default` are flags.
 */
function describeSuffix(suffix: string) {
  let language: string | null = null;
  const titleParts: string[] = [];
  const flags = { forced: false, default: false };
  for (const token of suffix.split('.').filter(Boolean)) {
    const lower = token.toLowerCase();
    if (lower === 'forced' || lower === 'default') flags[lower] = true;
    else if (!language && tokenLanguage(token)) language = token;
    else titleParts.push(token);
  }
  return { language, flags, title: titleParts.length > 0 ? titleParts.join('.') : null };
}

/**
 * Subtitle files beside a video that belong to it: same base name, an extension of .srt .ass .ssa .sub .idx .vtt,
 * optionally a language, title or `forced`/`default` in between (`Show - 01.en.srt`). A `.sub` that has an `.idx` with
 * the same name is VobSub's data file and is reported once, as the `.idx`. A folder that cannot be read yields none.
 */
export async function findExternalSubtitles(videoPath: string, options: ExternalSubtitleOptions = {}): Promise<TextStream[]> {
  const folder = path.dirname(videoPath);
  const video = path.basename(videoPath);
  const prefix = `${path.basename(video, path.extname(video)).toLowerCase()}.`;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name);
  const lowerNames = new Set(names.map((name) => name.toLowerCase()));
  const candidates = names
    .filter((name) => name !== video && name.toLowerCase().startsWith(prefix))
    .filter((name) => SUBTITLE_EXTENSIONS.has(path.extname(name).slice(1).toLowerCase()))
    .filter((name) => !(path.extname(name).toLowerCase() === '.sub' && lowerNames.has(`${name.slice(0, -4)}.idx`.toLowerCase())))
    .sort((a, b) => a.localeCompare(b));

  const firstId = options.firstId ?? 1;
  const firstOrder = options.firstOrder ?? 0;
  return candidates.map((name, index): TextStream => {
    const extension = path.extname(name);
    const { codec, format } = subtitleFileCodec(extension.slice(1))!;
    const suffix = describeSuffix(name.slice(prefix.length, name.length - extension.length));
    return {
      ID: firstId + index,
      UID: '',
      Title: suffix.title,
      Order: firstOrder + index,
      IsDefault: suffix.flags.default,
      IsForced: suffix.flags.forced,
      ...streamLanguage(suffix.language),
      Codec: codec,
      Format: { Name: format },
      SubTitle: null,
      IsExternal: true,
      ExternalFilename: name,
    };
  });
}
