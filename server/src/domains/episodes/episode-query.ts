import { dataFrom, includeOnly, listItems } from '../../http/list-query.js';
import { validationError } from '../../http/problem.js';
import type { EpisodeFilter } from './episode-models.js';

/** Parsing of the episode routes' list parameters (repeated keys or comma lists) into what the services use. */

const EPISODE_TYPES = ['Unknown', 'Other', 'Episode', 'Special', 'Trailer', 'Credits', 'Parody'];

export { dataFrom, includeOnly, listItems as listOf };

/** `type` list: names or numbers; `Unknown` is accepted but episodes without AniDB data are never listed. */
export const episodeTypes = (raw: string | string[] | undefined) =>
  listItems(raw).map((t) => {
    const match = /^\d+$/.test(t) ? EPISODE_TYPES[Number(t)] : EPISODE_TYPES.find((e) => e.toLowerCase() === t.toLowerCase());
    if (!match) throw validationError('type', `The value '${t}' is not valid for type.`);
    return match;
  });

export interface EpisodeFilterInput {
  includeMissing?: string;
  includeUnaired?: string;
  includeHidden?: string;
  includeVoted?: string;
  includeWatched?: string;
  type?: string | string[];
  search?: string;
}

export const episodeFilter = (q: EpisodeFilterInput): EpisodeFilter => ({
  includeMissing: includeOnly(q.includeMissing, 'false', 'includeMissing'),
  includeUnaired: includeOnly(q.includeUnaired, 'false', 'includeUnaired'),
  includeHidden: includeOnly(q.includeHidden, 'false', 'includeHidden'),
  includeVoted: includeOnly(q.includeVoted, 'true', 'includeVoted'),
  includeWatched: includeOnly(q.includeWatched, 'true', 'includeWatched'),
  types: episodeTypes(q.type),
  search: q.search?.trim() || undefined,
});

/** §1 Vote: normalised to 0–10 (two decimals); null = revoke (-1). */
export const voteValue = ({ Value, MaxValue }: { Value: number; MaxValue: number }): number | null => {
  if (Value > MaxValue) throw validationError('Value', `Value must be less than or equal to MaxValue (${MaxValue}).`);
  if (Value < 0) return null;
  return MaxValue === 0 ? 0 : Math.round(Math.min(10, Math.max(0, (Value / MaxValue) * 10)) * 100) / 100;
};
