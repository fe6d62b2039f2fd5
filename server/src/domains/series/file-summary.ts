import type { AnidbEpisode } from '@shoko-ts/contract';
import { anidbEpisodeModel } from '../episodes/index.js';
import { fileSourceOf } from './series-browse.store.js';
import type { SeriesStore, SummaryFileRow } from './series.store.js';

export const GROUP_BY_CRITERIA = [
  'GroupName',
  'FileVersion',
  'FileSource',
  'FileLocation',
  'VideoCodecs',
  'VideoBitDepth',
  'VideoResolution',
  'AudioCodecs',
  'AudioLanguages',
  'AudioStreamCount',
  'SubtitleCodecs',
  'SubtitleLanguages',
  'SubtitleStreamCount',
  'VideoHasChapters',
  'FileIsDeprecated',
  'ImportFolder',
  'ED2K',
  'MultipleLocations',
] as const;
export type GroupByCriterion = (typeof GROUP_BY_CRITERIA)[number];

const json = <T>(text: string | null, fallback: T): T => {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
};
const TYPE_ORDER = ['Episode', 'Special', 'Other', 'Credits', 'Trailer', 'Parody', 'Unknown'];

/** "01-03, 05": consecutive numbers collapsed, zero-padded to two digits. */
export function episodeRange(numbers: number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const pad = (n: number) => String(n).padStart(2, '0');
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? pad(sorted[i]) : `${pad(sorted[i])}-${pad(sorted[j])}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** A row's value for one criterion; null leaves the criterion out of the group's keys (no such data is kept). */
function groupValue(
  criterion: GroupByCriterion,
  r: SummaryFileRow,
  manual: boolean,
  languagesOf: (text: string | null) => string[],
): unknown {
  switch (criterion) {
    case 'GroupName':
      return manual ? 'None' : (r.group_name ?? 'Unknown');
    case 'FileVersion':
      return r.version ?? 1;
    case 'FileSource':
      return fileSourceOf(r.source);
    case 'FileLocation':
      return r.relative_path ? r.relative_path.replace(/\\/g, '/').split('/').slice(0, -1).join('/') : null;
    case 'FileIsDeprecated':
      return !!r.is_deprecated;
    case 'ImportFolder':
      return r.import_folder_id;
    case 'ED2K':
      return `${r.ed2k}+${r.size}`;
    case 'AudioLanguages':
      return languagesOf(r.audio_languages);
    case 'SubtitleLanguages':
      return languagesOf(r.subtitle_languages);
    default:
      // The media-info criteria and MultipleLocations (a filter of the entries, not a key).
      return null;
  }
}

interface Options {
  types: string[] | null;
  groupBy: GroupByCriterion[];
  includeEpisodeDetails: boolean;
  includeLocationDetails: boolean;
  includeMissingUnknownEpisodes: boolean;
  includeMissingFutureEpisodes: boolean;
}

type SummaryEpisode = Awaited<ReturnType<SeriesStore['summaryEpisodes']>>[number];

/** WebUI/Series/{id}/FileSummary: the series' local files grouped by the chosen criteria, plus its missing episodes. */
export async function fileSummary(
  store: Pick<SeriesStore, 'summaryEpisodes' | 'summaryFileRows'>,
  seriesId: number,
  options: Options,
  today = new Date().toISOString().slice(0, 10),
) {
  const types = options.types ?? ['Episode', 'Special', 'Other'];
  const episodes: SummaryEpisode[] = (await store.summaryEpisodes(seriesId)).filter((e) => !types.length || types.includes(e.type));
  const byAnidb = new Map(episodes.map((e) => [e.anidb_id, e]));
  // The rows of the whole series (one index read by series), kept to the episodes of the asked types.
  const rows = byAnidb.size ? (await store.summaryFileRows(seriesId)).filter((r) => byAnidb.has(r.episode_id)) : [];
  // Only files with a location count; with MultipleLocations only files having more than one, one entry per location.
  const located = rows.filter((r) => r.location_id !== null);
  const locationsPerFile = new Map<number, Set<number>>();
  for (const r of located)
    (locationsPerFile.get(r.file_id) ?? locationsPerFile.set(r.file_id, new Set()).get(r.file_id)!).add(r.location_id!);
  const multiple = options.groupBy.includes('MultipleLocations');
  // Otherwise one entry per file and episode: its first row (the rows come by file, then location).
  const firstOfPair = new Set<string>();
  const entries = multiple
    ? located.filter((r) => locationsPerFile.get(r.file_id)!.size > 1)
    : located.filter((r) => {
        const pair = `${r.file_id}:${r.episode_id}`;
        if (firstOfPair.has(pair)) return false;
        firstOfPair.add(pair);
        return true;
      });
  // Each row's language lists, parsed once per distinct text (a series' files share a few).
  const languages = new Map<string | null, string[]>();
  const languagesOf = (text: string | null) => {
    let list = languages.get(text);
    if (!list) languages.set(text, (list = json<string[]>(text, [])));
    return list;
  };

  const groups = new Map<string, { keys: Record<string, unknown>; entries: typeof entries }>();
  for (const r of entries) {
    const manual = r.link_source !== 'AniDB';
    const keys: Record<string, unknown> = {};
    for (const criterion of options.groupBy) {
      const value = groupValue(criterion, r, manual, languagesOf);
      if (value === null) continue;
      keys[criterion] = value;
      if (criterion === 'GroupName') keys.GroupNameShort = manual ? '-' : (r.group_short ?? 'Unk');
    }
    const id = JSON.stringify(keys);
    (groups.get(id) ?? groups.set(id, { keys, entries: [] }).get(id)!).entries.push(r);
  }

  const summaries = [...groups.values()].map(({ keys, entries: members }) => {
    const rangeByType: Record<string, { Count: number; Range: string; FileSize: number }> = {};
    const perType = new Map<string, { numbers: number[]; files: Map<number, number> }>();
    for (const m of members) {
      const episode = byAnidb.get(m.episode_id)!;
      const slot = perType.get(episode.type) ?? perType.set(episode.type, { numbers: [], files: new Map() }).get(episode.type)!;
      slot.numbers.push(episode.number);
      slot.files.set(m.file_id, Number(m.size));
    }
    for (const [type, slot] of [...perType].sort((a, b) => TYPE_ORDER.indexOf(a[0]) - TYPE_ORDER.indexOf(b[0]))) {
      rangeByType[type] = {
        Count: new Set(slot.numbers).size,
        Range: episodeRange(slot.numbers),
        FileSize: [...slot.files.values()].reduce((a, b) => a + b, 0),
      };
    }
    const summary: Record<string, unknown> = { ...keys, RangeByType: rangeByType };
    if (options.includeEpisodeDetails)
      summary.Episodes = members.map((m) => ({
        EpisodeID: m.episode_id,
        FileID: m.file_id,
        Type: byAnidb.get(m.episode_id)!.type,
        Number: byAnidb.get(m.episode_id)!.number,
        Size: Number(m.size),
        ED2K: m.ed2k,
      }));
    if (options.includeLocationDetails)
      summary.Locations = members.map((m) => ({
        ID: m.location_id,
        FileID: m.file_id,
        ImportFolderID: m.import_folder_id,
        RelativePath: m.relative_path,
        IsAccessible: !!m.is_accessible,
      }));
    const first = members
      .map((m) => byAnidb.get(m.episode_id)!)
      .sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) || a.number - b.number)[0];
    return { summary, sortType: TYPE_ORDER.indexOf(first.type), sortNumber: first.number, size: members.length };
  });
  summaries.sort((a, b) => a.sortType - b.sortType || a.sortNumber - b.sortNumber || b.size - a.size);

  const covered = new Set(entries.map((e) => e.episode_id));
  const missing: AnidbEpisode[] = episodes
    .filter((e) => !e.is_hidden && !covered.has(e.anidb_id))
    .filter((e) =>
      e.air_date ? e.air_date.slice(0, 10) <= today || options.includeMissingFutureEpisodes : options.includeMissingUnknownEpisodes,
    )
    .sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) || a.number - b.number)
    .map((e) => anidbEpisodeModel({ ...e, id: e.anidb_id }));

  const distinctFiles = new Map(entries.map((e) => [e.file_id, e]));
  const sources = new Map<string, Map<string, Set<number>>>();
  for (const e of entries) {
    const type = byAnidb.get(e.episode_id)!.type;
    const bySource = sources.get(type) ?? sources.set(type, new Map()).get(type)!;
    const source = fileSourceOf(e.source);
    (bySource.get(source) ?? bySource.set(source, new Set()).get(source)!).add(e.file_id);
  }
  return {
    Overview: {
      TotalFileSize: [...distinctFiles.values()].reduce((sum, f) => sum + Number(f.size), 0),
      ReleaseGroups: [...new Set(entries.map((e) => (e.link_source !== 'AniDB' ? 'None' : (e.group_name ?? 'Unknown'))))].sort(),
      SourcesByType: [...sources]
        .sort((a, b) => TYPE_ORDER.indexOf(a[0]) - TYPE_ORDER.indexOf(b[0]))
        .map(([type, bySource]) => ({
          Type: type,
          Sources: [...bySource].map(([source, files]) => ({ Type: source, Count: files.size })),
        })),
    },
    Groups: summaries.map((s) => s.summary),
    MissingEpisodes: missing,
  };
}
