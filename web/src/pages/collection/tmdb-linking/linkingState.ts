import { TMDB_MATCH_RATING_BADGES, type Episode, type TmdbEpisodeCrossReference, type TmdbMovieCrossReference } from '@shoko-ts/contract';
import type { LinkingLinks, LinkOverrides, TmdbLinkType } from '@/api/tmdb';

export const ratingBadge = (rating: string | undefined) => (TMDB_MATCH_RATING_BADGES as Record<string, string>)[rating ?? 'None'] ?? 'None';

export const TEXTS = {
  otherShow: 'Episode is linked to another show.',
  otherMovie: 'This episode is already linked to a different movie!',
  noLinks: 'No links to save!',
  saveFailed: 'Failed to save links!',
  noResults: 'No results found!',
};

/** One row of the linking list: an AniDB episode and what it links to in the picked show or movie. */
export interface LinkRow {
  episode: Episode;
  anidbId: number;
  /** TMDB episode ids (show) or [movie id] (movie) the episode links to now; [] = not linked. */
  current: number[];
  rating: string;
  /** Why the episode cannot be linked here (linked to another show or movie), else null. */
  disabledReason: string | null;
  /** The staged value (TMDB episode id or movie id; 0 = no link), when there is one. */
  override: number | undefined;
}

/** The rows of the list from the AniDB episodes, the current links and the staged overrides. */
export function buildRows(
  episodes: Episode[],
  links: LinkingLinks | undefined,
  type: TmdbLinkType,
  id: number,
  overrides: LinkOverrides,
): LinkRow[] {
  return episodes.map((episode) => {
    const anidbId = episode.IDs.AniDB;
    const override = overrides.get(anidbId);
    if (type === 'Movie') {
      const mine = (links?.type === 'Movie' ? links.links : []).filter((link: TmdbMovieCrossReference) => link.AnidbEpisodeID === anidbId);
      const here = mine.filter((link) => link.TmdbMovieID === id);
      const other = mine.length > 0 && here.length === 0;
      return {
        episode,
        anidbId,
        current: here.length ? [id] : [],
        rating: here.length ? 'UserVerified' : 'None',
        disabledReason: other ? TEXTS.otherMovie : null,
        override,
      };
    }
    const mine = (links?.type === 'Show' ? links.links : []).filter((link: TmdbEpisodeCrossReference) => link.AnidbEpisodeID === anidbId);
    const here = mine.filter((link) => link.TmdbShowID === id && link.TmdbEpisodeID !== 0);
    const other = mine.some((link) => link.TmdbShowID !== id && link.TmdbShowID !== 0 && link.TmdbEpisodeID !== 0);
    return {
      episode,
      anidbId,
      current: here.map((link) => link.TmdbEpisodeID),
      rating: here[0]?.Rating ?? mine[0]?.Rating ?? 'None',
      disabledReason: other && here.length === 0 ? TEXTS.otherShow : null,
      override,
    };
  });
}

/** What a row links to once its override is applied (ids; [] = nothing). */
export const effectiveLinks = (row: LinkRow): number[] => (row.override === undefined ? row.current : row.override ? [row.override] : []);

/**
 * Stages `value` for the episode, or drops the override when it restores what is stored. Returns a new map.
 */
export function stageOverride(overrides: LinkOverrides, row: LinkRow, value: number): Map<number, number> {
  const next = new Map(overrides);
  const restores = value === 0 ? row.current.length === 0 : row.current.length === 1 && row.current[0] === value;
  if (restores) next.delete(row.anidbId);
  else next.set(row.anidbId, value);
  return next;
}

/** A movie row toggles between the movie and "no link". */
export const toggleMovie = (overrides: LinkOverrides, row: LinkRow, movieId: number) =>
  stageOverride(overrides, row, effectiveLinks(row).length ? 0 : movieId);

/** AniDB episode label: `E3`, `S1`, `O2`, like Shoko's type prefixes. */
export function episodeLabel(episode: Episode): string {
  const anidb = episode.AniDB;
  if (!anidb) return `#${episode.IDs.AniDB}`;
  const prefix = anidb.Type === 'Special' ? 'S' : anidb.Type === 'Other' ? 'O' : anidb.Type === 'Episode' ? 'E' : anidb.Type.charAt(0);
  return `${prefix}${anidb.EpisodeNumber}`;
}

export const seasonEpisode = (season: number, episode: number) => `S${String(season).padStart(2, '0')}E${String(episode).padStart(2, '0')}`;
