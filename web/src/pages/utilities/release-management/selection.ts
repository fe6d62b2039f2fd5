import type { File, ReleaseEpisode, ReleaseManagementType } from '@shoko-ts/contract';
import type { QuickSelectGroup, ReleaseChanges } from '@/api/releaseManagement';

export const ITEM_TYPES = [
  { key: 'multiples', label: 'Multiples', api: 'MultipleReleases', empty: 'No series with multiple releases!' },
  { key: 'duplicates', label: 'Duplicates', api: 'DuplicateFiles', empty: 'No series with duplicate files!' },
  { key: 'missing-episodes', label: 'Missing Episodes', api: 'MissingEpisodes', empty: 'No series with missing episodes!' },
] as const satisfies ReadonlyArray<{ key: string; label: string; api: ReleaseManagementType; empty: string }>;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Any route segment other than the three known ones is treated as multiples. */
export function itemTypeOf(segment: string | undefined): ItemType {
  return ITEM_TYPES.find((t) => t.key === segment) ?? ITEM_TYPES[0];
}

/** What happens to a file (multiples) or a location (duplicates) on Confirm. */
export type FileOption = 'keep' | 'delete' | 'variation';

/** Initial options: variations stay variations, everything else is kept; in duplicates every location starts as kept. */
export function initialOptions(type: ReleaseManagementType, episode: ReleaseEpisode): Map<number, FileOption> {
  const options = new Map<number, FileOption>();
  for (const file of episode.Files ?? []) {
    if (type === 'DuplicateFiles') for (const location of file.Locations) options.set(location.ID, 'keep');
    else options.set(file.ID, file.IsVariation ? 'variation' : 'keep');
  }
  return options;
}

export const pathOf = (location: File['Locations'][number]) => location.AbsolutePath ?? location.RelativePath;

/** A planned change set with the paths that will leave the disk, or why it cannot run. */
export interface Plan {
  changes: ReleaseChanges;
  removedPaths: string[];
  blocked: string | null;
}

/** Turns one opened episode's options into API calls; every file (or every copy of a file) cannot go at once. */
export function planEpisode(type: ReleaseManagementType, episode: ReleaseEpisode, options: ReadonlyMap<number, FileOption>): Plan {
  const files = episode.Files ?? [];
  const changes: ReleaseChanges = { deleteFiles: [], deleteLocations: [], variations: [] };
  const removedPaths: string[] = [];
  let blocked: string | null = null;
  if (type === 'DuplicateFiles') {
    for (const file of files) {
      const doomed = file.Locations.filter((l) => options.get(l.ID) === 'delete');
      if (doomed.length && doomed.length === file.Locations.length) blocked = 'Keep at least one copy of each file.';
      changes.deleteLocations.push(...doomed.map((l) => l.ID));
      removedPaths.push(...doomed.map(pathOf));
    }
  } else {
    for (const file of files) {
      const option = options.get(file.ID) ?? 'keep';
      if (option === 'delete') {
        changes.deleteFiles.push(file.ID);
        removedPaths.push(...file.Locations.map(pathOf));
      } else if ((option === 'variation') !== file.IsVariation) {
        changes.variations.push({ fileId: file.ID, value: option === 'variation' });
      }
    }
    if (files.length && changes.deleteFiles.length === files.length) blocked = 'Keep at least one file of the episode.';
  }
  return { changes, removedPaths, blocked };
}

/** The text of a Quick Select group's episode range(s), e.g. "01-03" or "01-03 · S 01". */
export function groupRange(group: QuickSelectGroup): string {
  const prefix: Record<string, string> = { Episode: '', Special: 'S ', Other: 'O ', Credits: 'C ', Trailer: 'T ', Parody: 'P ' };
  return Object.entries(group.RangeByType)
    .map(([type, range]) => `${prefix[type] ?? `${type} `}${range.Range}`)
    .join(' · ');
}

/**
 * Quick Select: deletes the files (multiples) or copies (duplicates) of the chosen groups, limited to the episodes in
 * the list, and never the last file of an episode or the last copy of a file — those are left and counted as skipped.
 */
export function planQuickSelect(
  type: 'MultipleReleases' | 'DuplicateFiles',
  groups: QuickSelectGroup[],
  chosen: ReadonlySet<number>,
  episodes: ReleaseEpisode[],
): Plan & { skipped: number } {
  const changes: ReleaseChanges = { deleteFiles: [], deleteLocations: [], variations: [] };
  const removedPaths: string[] = [];
  let skipped = 0;
  const picked = groups.filter((_, index) => chosen.has(index));
  const files = new Map(episodes.flatMap((e) => e.Files ?? []).map((f) => [f.ID, f]));
  if (type === 'MultipleReleases') {
    const wanted = new Set(
      picked
        .flatMap((g) => g.Episodes ?? [])
        .map((e) => e.FileID)
        .filter((id) => files.has(id)),
    );
    for (const episode of episodes) {
      const own = (episode.Files ?? []).map((f) => f.ID);
      if (own.length && own.every((id) => wanted.has(id))) {
        skipped++;
        for (const id of own) wanted.delete(id);
      }
    }
    changes.deleteFiles = [...wanted].sort((a, b) => a - b);
    removedPaths.push(...changes.deleteFiles.flatMap((id) => files.get(id)!.Locations.map(pathOf)));
  } else {
    const wanted = new Set(picked.flatMap((g) => g.Locations ?? []).map((l) => l.ID));
    for (const file of files.values()) {
      const ids = file.Locations.map((l) => l.ID);
      if (ids.length && ids.every((id) => wanted.has(id))) {
        skipped++;
        wanted.delete(ids[0]);
      }
    }
    for (const file of files.values()) {
      for (const location of file.Locations) {
        if (!wanted.has(location.ID)) continue;
        changes.deleteLocations.push(location.ID);
        removedPaths.push(pathOf(location));
      }
    }
  }
  const empty = !changes.deleteFiles.length && !changes.deleteLocations.length;
  return { changes, removedPaths, skipped, blocked: empty ? 'Nothing to delete: choose a group.' : null };
}

/** "EP 01" / "S 02" … as the console labels AniDB episodes. */
export function episodeTag(episode: ReleaseEpisode): string {
  const prefix: Record<string, string> = { Episode: 'EP', Special: 'S', Other: 'O', Credits: 'C', Trailer: 'T', Parody: 'P' };
  const anidb = episode.AniDB;
  return anidb ? `${prefix[anidb.Type] ?? anidb.Type} ${String(anidb.EpisodeNumber).padStart(2, '0')}` : 'EP';
}
