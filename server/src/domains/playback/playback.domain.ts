import path from 'node:path';
import type { Logger } from 'pino';
import type { AccountCache } from '../../db/account-cache.js';
import type { Db } from '../../db/database.js';
import { findFfmpeg, type FfmpegTools } from '../../media/ffmpeg/probe.js';
import { lookupLanguage } from '../../media/mediainfo/languages.js';
import type { SettingsService } from '../settings/index.js';
import { PlaybackService, type LocatedFile } from './playback.service.js';
import { PlaybackStore } from './playback.store.js';
import { PlaybackTokens } from './playback-tokens.js';

/**
 * The languages a viewer prefers, as ISO 639-2 codes, from the series title order of the settings (the one titles
 * use): `x-jat` (romaji) counts as Japanese, `x-main` and unknown codes are skipped.
 */
export function preferredLanguages(order: readonly string[]): string[] {
  const codes = order.map((code) => (code === 'x-main' ? null : (lookupLanguage(code)?.code ?? null))).filter((c): c is string => !!c);
  return [...new Set(codes)];
}

/** Builds the playback domain over the server's parts; `SHOKO_FFMPEG=none` runs it without ffmpeg. */
export function createPlayback(deps: {
  home: string;
  db: Db;
  accounts: AccountCache;
  settings: SettingsService;
  locate(fileId: number): Promise<LocatedFile>;
  animeAllowed(userId: number, animeId: number): Promise<boolean>;
  logger: Logger;
  tools?: FfmpegTools | null;
}): PlaybackService {
  const tools = deps.tools === undefined ? findFfmpeg() : deps.tools;
  if (!tools) deps.logger.info('ffmpeg was not found: files the browser cannot decode will not play in the console.');
  return new PlaybackService({
    store: new PlaybackStore(deps.db.kysely, deps.accounts),
    tokens: PlaybackTokens.open(deps.home),
    tools,
    locate: deps.locate,
    animeAllowed: deps.animeAllowed,
    settings: () => {
      const current = deps.settings.current;
      return {
        maxTranscodes: current.Playback.MaxConcurrentTranscodes,
        languageOrder: preferredLanguages(current.Language.SeriesTitleLanguageOrder),
        transcodePreset: current.Playback.TranscodePreset,
      };
    },
    workDir: path.join(deps.home, 'temp', 'playback'),
    logger: deps.logger,
  });
}
