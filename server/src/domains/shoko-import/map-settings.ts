import type { MapContext } from './map-context.js';

/**
 * The parts of Shoko's settings that mean the same here: AniDB account and options, languages, import options, TMDB,
 * Trakt and Plex links, grouping, renamer and file-quality choices. Server-only parts (database, ports, paths, logging,
 * the web UI, the first-run flag) stay ours.
 */
const CARRIED_SECTIONS = [
  'Culture',
  'AutoGroupSeries',
  'AutoGroupSeriesRelationExclusions',
  'AutoGroupSeriesUseScoreAlgorithm',
  'LoadImageMetadata',
  'Language',
  'AniDb',
  'TMDB',
  'Import',
  'Plex',
  'TraktTv',
  'Plugins',
  'FileQualityFilterEnabled',
  'FileQualityPreferences',
] as const;

export function mapSettings(ctx: MapContext): void {
  const source = ctx.folder.settings;
  const carried: Record<string, unknown> = {};
  for (const section of CARRIED_SECTIONS) if (Object.hasOwn(source, section)) carried[section] = source[section];
  ctx.plan.settings = carried;
  const kind = ctx.report.kind('Settings sections', CARRIED_SECTIONS.filter((s) => Object.hasOwn(source, s)).length);
  kind.took(Object.keys(carried).length);
  const anidb = (source.AniDb ?? {}) as Record<string, unknown>;
  if (anidb.Username) ctx.report.note(`The AniDB account "${String(anidb.Username)}" is used as in Shoko.`);
}
