import type { QualityFacts } from './release-management.store.js';

/** The parts of the server's FileQualityPreferences the ranking reads (contract server.md §FileQualityPreferences). */
export interface QualityPreferences {
  PreferredTypes: number[];
  PreferredAudioCodecs: string[];
  PreferredResolutions: string[];
  PreferredSubGroups: string[];
  PreferredVideoCodecs: string[];
  PreferredSources: string[];
  MaxNumberOfFilesToKeep: number;
  AllowDeletingFilesWithMissingInfo: boolean;
}

interface Facts {
  id: number;
  known: boolean;
  resolution: string | null;
  source: string | null;
  version: number;
  audioStreams: number;
  subStreams: number;
  videoCodec: string | null;
  audioCodec: string | null;
  chaptered: boolean;
  group: string | null;
}

type Stream = { Codec?: { Simplified?: string; Raw?: string | null } };
type Media = { Video?: Array<Stream & { Resolution?: string }>; Audio?: Stream[]; Subtitles?: Stream[]; Chapters?: unknown[] };

// AniDB source names as the preferences spell them ('bd', 'www', …).
const SOURCE_ALIAS: Record<string, string> = {
  bluray: 'bd',
  'blu-ray': 'bd',
  web: 'www',
  hdtv: 'tv',
  dtv: 'tv',
  hddvd: 'dvd',
  hkdvd: 'dvd',
};

function factsOf(row: QualityFacts): Facts {
  let media: Media | null = null;
  try {
    media = row.media_info ? (JSON.parse(row.media_info) as Media) : null;
  } catch {
    media = null;
  }
  const codec = (stream: Stream | undefined) => (stream?.Codec?.Raw ?? stream?.Codec?.Simplified ?? '').toLowerCase() || null;
  const source = row.source?.toLowerCase() ?? null;
  return {
    id: row.id,
    known: media !== null && row.anidb_file_id !== null,
    resolution: media?.Video?.[0]?.Resolution?.toLowerCase() ?? null,
    source: source ? (SOURCE_ALIAS[source] ?? source) : null,
    version: row.version ?? 1,
    audioStreams: media?.Audio?.length ?? 0,
    subStreams: media?.Subtitles?.length ?? 0,
    videoCodec: codec(media?.Video?.[0]),
    audioCodec: codec(media?.Audio?.[0]),
    chaptered: !!row.is_chaptered || (media?.Chapters?.length ?? 0) > 0,
    group: (row.group_short ?? row.group_name)?.toLowerCase() ?? null,
  };
}

/** Position in a preference list; values not listed rank after every listed one. */
const rankIn = (list: string[], value: string | null) => {
  const index = value === null ? -1 : list.findIndex((item) => item.toLowerCase() === value);
  return index === -1 ? list.length : index;
};

type Criterion = (a: Facts, b: Facts, prefs: QualityPreferences) => number;
type PreferenceList = 'PreferredResolutions' | 'PreferredSources' | 'PreferredVideoCodecs' | 'PreferredAudioCodecs' | 'PreferredSubGroups';
/** The listed value first, in the order of the preference list. */
const listed =
  (list: PreferenceList, fact: 'resolution' | 'source' | 'videoCodec' | 'audioCodec' | 'group'): Criterion =>
  (a, b, prefs) =>
    rankIn(prefs[list], a[fact]) - rankIn(prefs[list], b[fact]);
/** The higher value (true before false) first. */
const higher =
  (fact: 'version' | 'audioStreams' | 'chaptered' | 'subStreams'): Criterion =>
  (a, b) =>
    Number(b[fact]) - Number(a[fact]);

/** The criteria by their PreferredTypes number. */
const CRITERIA: Criterion[] = [
  listed('PreferredResolutions', 'resolution'),
  listed('PreferredSources', 'source'),
  higher('version'),
  higher('audioStreams'),
  listed('PreferredVideoCodecs', 'videoCodec'),
  listed('PreferredAudioCodecs', 'audioCodec'),
  higher('chaptered'),
  listed('PreferredSubGroups', 'group'),
  higher('subStreams'),
];

/** Negative when `a` is the better file, by the criteria in the order of PreferredTypes. */
function compare(a: Facts, b: Facts, prefs: QualityPreferences): number {
  for (const type of prefs.PreferredTypes) {
    const diff = Number.isInteger(type) && type >= 0 && type < CRITERIA.length ? CRITERIA[type](a, b, prefs) : 0;
    if (diff) return diff;
  }
  return a.id - b.id;
}

/**
 * Files of one episode that can go: all but the best `MaxNumberOfFilesToKeep` (at least one) by the quality preferences. A file
 * whose media info or AniDB data is missing is never suggested unless the settings allow it, since it cannot be ranked.
 */
export function filesToDelete(rows: QualityFacts[], prefs: QualityPreferences): number[] {
  const ranked = rows.map(factsOf).sort((a, b) => compare(a, b, prefs));
  return ranked
    .slice(Math.max(1, prefs.MaxNumberOfFilesToKeep))
    .filter((file) => file.known || prefs.AllowDeletingFilesWithMissingInfo)
    .map((file) => file.id);
}
