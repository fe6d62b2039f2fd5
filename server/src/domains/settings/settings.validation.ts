import { basename, dirname } from 'node:path';
import { TRANSCODE_PRESETS, type ServerSettings } from '@shoko-ts/contract';
import type { FieldErrors } from '../../http/problem.js';
import { pacingProblems } from '../../providers/anidb/pacing-bounds.js';
import { isKnownLanguageCode } from './languages.js';

type Rule = { path: string; check: (settings: ServerSettings) => string | null };

const required = (path: string, get: (s: ServerSettings) => string | null | undefined): Rule => ({
  path,
  check: (s) => (get(s)?.trim() ? null : `The ${path.split('.').pop()} field is required.`),
});

const range = (path: string, min: number, max: number, get: (s: ServerSettings) => number, message?: string): Rule => ({
  path,
  check: (s) => {
    const value = get(s);
    return value >= min && value <= max ? null : (message ?? `The field ${path.split('.').pop()} must be between ${min} and ${max}.`);
  },
});

const oneOf = (path: string, allowed: readonly string[], get: (s: ServerSettings) => string): Rule => ({
  path,
  check: (s) => (allowed.includes(get(s)) ? null : `The field ${path.split('.').pop()} must be one of ${allowed.join(', ')}.`),
});

const httpUrl: Rule = {
  path: 'AniDb.HTTPServerUrl',
  check: (s) => {
    const value = s.AniDb.HTTPServerUrl?.trim();
    if (!value) return null; // reported by the required rule
    try {
      const url = new URL(value);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return null;
    } catch {
      // falls through to the message
    }
    return 'Invalid HTTP Server URL. Use the format {scheme}://{address}:{port}, where the port is optional.';
  },
};

/** The contract's 2–1000, and the bounds that keep AniDB's long-term rule (pacing-bounds.ts), each on its field. */
const rateLimitRules = (section: 'HTTPRateLimit' | 'UDPRateLimit'): Rule[] =>
  (['BaseRateInSeconds', 'SlowRateMultiplier', 'SlowRatePeriodMultiplier', 'ResetPeriodMultiplier'] as const).map((field) => ({
    path: `AniDb.${section}.${field}`,
    check: (s) => pacingProblems(s.AniDb[section]).find((problem) => problem.field === field)?.message ?? null,
  }));

const tmdbImageLimits = (['MaxAutoBackdrops', 'MaxAutoPosters', 'MaxAutoLogos', 'MaxAutoThumbnails', 'MaxAutoStaffImages'] as const).map(
  (field) => range(`TMDB.${field}`, 0, 30, (s) => s.TMDB[field]),
);

/** The rules of contract server.md §3.8 plus the URL check of SPEC.md §5. */
const RULES: Rule[] = [
  required('AniDb.Username', (s) => s.AniDb.Username),
  required('AniDb.Password', (s) => s.AniDb.Password),
  required('AniDb.HTTPServerUrl', (s) => s.AniDb.HTTPServerUrl),
  httpUrl,
  range('AniDb.MaxRelationDepth', 0, 5, (s) => s.AniDb.MaxRelationDepth, 'Max Relation Depth may only be between 0 and 5'),
  range('AniDb.AVDump.MaxConcurrency', 0, 64, (s) => s.AniDb.AVDump.MaxConcurrency),
  range('AniDb.AVDump.CreqTimeout', 20, 300, (s) => s.AniDb.AVDump.CreqTimeout),
  range('AniDb.AVDump.CreqMaxRetries', 1, 20, (s) => s.AniDb.AVDump.CreqMaxRetries),
  ...rateLimitRules('HTTPRateLimit'),
  ...rateLimitRules('UDPRateLimit'),
  ...tmdbImageLimits,
  range('Import.MaxAutoScanAttemptsPerFile', 0, 100, (s) => s.Import.MaxAutoScanAttemptsPerFile),
  range('Playback.MaxConcurrentTranscodes', 1, 16, (s) => s.Playback.MaxConcurrentTranscodes),
  range('Playback.WatchedThresholdPercent', 50, 100, (s) => s.Playback.WatchedThresholdPercent),
  oneOf('Playback.TranscodePreset', TRANSCODE_PRESETS, (s) => s.Playback.TranscodePreset),
  range('Web.Port', 1, 65535, (s) => s.Web.Port, 'Server Port must be between 1 and 65535'),
];

export function validateSettings(settings: ServerSettings): FieldErrors {
  const errors: FieldErrors = {};
  for (const rule of RULES) {
    const message = rule.check(settings);
    if (message) (errors[rule.path] ??= []).push(message);
  }
  return errors;
}

const SOURCE_ALIASES: Record<string, string> = {
  raw: 'unknown',
  dtv: 'tv',
  hdtv: 'tv',
  hkdvd: 'dvd',
  vcd: 'dvd',
  hddvd: 'bd',
  'blu-ray': 'bd',
  bluray: 'bd',
  laserdisc: 'ld',
  web: 'www',
};

const unique = (values: string[], key = (v: string) => v.toLowerCase()) => {
  const seen = new Set<string>();
  return values.filter((value) => {
    const k = key(value);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/** The clean-ups Shoko applies when settings are written (contract server.md §3.6 notes). */
export function normalizeSettings(settings: ServerSettings): void {
  const language = settings.Language;
  for (const key of ['SeriesTitleLanguageOrder', 'EpisodeTitleLanguageOrder', 'DescriptionLanguageOrder'] as const) {
    language[key] = language[key].filter((code) => code.trim() !== '');
  }
  for (const key of ['SeriesTitleSourceOrder', 'EpisodeTitleSourceOrder', 'DescriptionSourceOrder'] as const) {
    language[key] = unique(language[key]);
  }
  settings.TMDB.ImageLanguageOrder = unique(
    settings.TMDB.ImageLanguageOrder.filter((code) => code.toLowerCase() === 'none' || isKnownLanguageCode(code)),
  );
  const file = settings.Database.SQLite_DatabaseFile;
  if (file.includes('/') || file.includes('\\')) {
    const normalized = file.replace(/\\/g, '/');
    settings.Database.MySqliteDirectory = dirname(normalized);
    settings.Database.SQLite_DatabaseFile = basename(normalized);
  }
  const quality = settings.FileQualityPreferences;
  quality.PreferredSources = quality.PreferredSources.map((source) => {
    const lower = source.toLowerCase();
    return SOURCE_ALIASES[lower] ?? lower;
  });
  const renamer = settings.Plugins.Renamer;
  renamer.RelocateOnImport = renamer.MoveOnImport || renamer.RenameOnImport;
}
