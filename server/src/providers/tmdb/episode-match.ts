import { bestTitleSimilarity, normaliseTitle } from './title-similarity.js';
import type { TmdbEpisode } from './types.js';

/**
 * How an AniDB episode ↔ TMDB episode link was made: the `Rating` string of the v3 contract's
 * TmdbEpisode.CrossReference, with the console's badge of each.
 */
export { TMDB_MATCH_RATING_BADGES as MATCH_RATING_BADGES, type TmdbMatchRating } from '@shoko-ts/contract';
import type { TmdbMatchRating } from '@shoko-ts/contract';

/** The v3 contract's EpisodeType; only regular episodes and specials are ever linked automatically. */
export type AnidbEpisodeType = 'Episode' | 'Special' | 'Credits' | 'Trailer' | 'Parody' | 'Other' | 'Unknown';

export interface AnidbEpisodeForMatching {
  id: number;
  type: AnidbEpisodeType;
  number: number;
  /** `YYYY-MM-DD` (a longer ISO timestamp is cut to its date). */
  airDate: string | null;
  /** Main and translated titles; AniDB placeholders such as "Episode 5" are ignored. */
  titles: readonly string[];
}

export interface TmdbEpisodeForMatching {
  id: number;
  /** In the ordering being matched against; season 0 holds the specials. */
  seasonNumber: number;
  episodeNumber: number;
  airDate: string | null;
  titles: readonly string[];
}

export interface EpisodeLink {
  anidbEpisodeId: number;
  /** 0 = not linked (the contract's explicit "no link"). */
  tmdbEpisodeId: number;
  rating: TmdbMatchRating;
}

export interface MatchEpisodesOptions {
  /** Air dates this many days apart still count as equal: broadcast time zones shift a date by one. Default 1. */
  dateToleranceDays?: number;
  /** Sørensen–Dice similarity from which differing titles still count as "kinda" the same. Default 0.6. */
  fuzzyTitleThreshold?: number;
  /** Links the user set by hand: kept as they are (`UserVerified`) and their TMDB episodes are not reused. */
  userOverrides?: readonly { anidbEpisodeId: number; tmdbEpisodeId: number }[];
  /** Link leftovers by position (`FirstAvailable`). Default true. */
  positionFallback?: boolean;
}

/** A TMDB season episode (or one from an episode group) in the shape `matchEpisodes` compares. */
export function tmdbEpisodeForMatching(episode: TmdbEpisode, extraTitles: readonly string[] = []): TmdbEpisodeForMatching {
  return {
    id: episode.id,
    seasonNumber: episode.season_number,
    episodeNumber: episode.episode_number,
    airDate: episode.air_date || null,
    titles: [episode.name, ...extraTitles],
  };
}

/** Evidence ratings, strongest first; a pair's rating decides which links are made first. */
const EVIDENCE_STRENGTH: Partial<Record<TmdbMatchRating, number>> = {
  DateAndTitleMatches: 5,
  DateAndTitleKindaMatches: 4,
  DateMatches: 3,
  TitleMatches: 2,
  TitleKindaMatches: 1,
};

/**
 * Titles that only restate a number ("Episode 5", "Ep. 5", "Special 2", "第5話", "5") say nothing about which
 * episode this is; both sites use them as placeholders, so they must not produce title matches.
 */
const PLACEHOLDER_TITLE = /^(episode|ep|special|sp|ova|oad|part|chapter|第)?\s*\d+\s*(話|回)?$/;

const DAY_MS = 86_400_000;
/** Sorts after every real gap, and two unknown gaps compare as equal. */
const UNKNOWN_DAY_GAP = Number.MAX_SAFE_INTEGER;

function dayNumber(date: string | null): number | null {
  if (!date) return null;
  const parsed = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(parsed) ? null : Math.round(parsed / DAY_MS);
}

function meaningfulTitles(titles: readonly string[]): string[] {
  return titles.filter((title) => {
    const normalised = normaliseTitle(title);
    return normalised.length > 0 && !PLACEHOLDER_TITLE.test(normalised);
  });
}

interface PreparedEpisode {
  id: number;
  position: number;
  day: number | null;
  titles: string[];
}

interface Candidate {
  anidb: PreparedEpisode;
  tmdb: PreparedEpisode;
  rating: TmdbMatchRating;
  dayGap: number;
  similarity: number;
}

/**
 * Links AniDB episodes to TMDB episodes and rates each link; returns one entry per AniDB episode, in input order.
 *
 * Rules:
 * 1. Regular AniDB episodes are matched only against TMDB episodes outside season 0, specials only against
 *    season 0; credits, trailers, parodies and others are never linked automatically (rating None).
 * 2. User overrides come first, unchanged, as UserVerified. Auto-matching never produces UserVerified.
 * 3. Evidence per pair: the dates agree when both are known and at most `dateToleranceDays` apart; the titles
 *    match when equal after normalisation, and kinda match when their similarity reaches `fuzzyTitleThreshold`.
 *    Date and title → DT; date and kinda title → ~DT; date only → D; title only → T; kinda title only → ~T.
 * 4. Pairs are linked strongest first (then smaller date gap, more similar title, closer position), each episode on
 *    either side at most once.
 * 5. Leftovers are linked by position as a last resort (BG / FirstAvailable): each unlinked AniDB episode, in
 *    number order, takes the first unused TMDB episode after the one its predecessor links to and before the one
 *    its successor links to, so the fallback never reorders what the evidence established.
 * 6. Anything still unlinked gets TMDB id 0 with rating None.
 */
export function matchEpisodes(
  anidbEpisodes: readonly AnidbEpisodeForMatching[],
  tmdbEpisodes: readonly TmdbEpisodeForMatching[],
  options: MatchEpisodesOptions = {},
): EpisodeLink[] {
  const links = new Map<number, EpisodeLink>();
  const usedTmdb = new Set<number>();
  for (const override of options.userOverrides ?? []) {
    links.set(override.anidbEpisodeId, { ...override, rating: 'UserVerified' });
    if (override.tmdbEpisodeId !== 0) usedTmdb.add(override.tmdbEpisodeId);
  }

  const pools: [AnidbEpisodeType, (episode: TmdbEpisodeForMatching) => boolean][] = [
    ['Episode', (episode) => episode.seasonNumber !== 0],
    ['Special', (episode) => episode.seasonNumber === 0],
  ];
  for (const [anidbType, inPool] of pools) {
    const anidb = anidbEpisodes
      .filter((episode) => episode.type === anidbType)
      .sort((a, b) => a.number - b.number)
      .map((episode, position) => ({
        id: episode.id,
        position,
        day: dayNumber(episode.airDate),
        titles: meaningfulTitles(episode.titles),
      }));
    const tmdb = tmdbEpisodes
      .filter(inPool)
      .sort((a, b) => a.seasonNumber - b.seasonNumber || a.episodeNumber - b.episodeNumber)
      .map((episode, position) => ({
        id: episode.id,
        position,
        day: dayNumber(episode.airDate),
        titles: meaningfulTitles(episode.titles),
      }));
    linkByEvidence(anidb, tmdb, links, usedTmdb, options);
    if (options.positionFallback !== false) linkByPosition(anidb, tmdb, links, usedTmdb);
  }

  return anidbEpisodes.map((episode) => links.get(episode.id) ?? { anidbEpisodeId: episode.id, tmdbEpisodeId: 0, rating: 'None' });
}

/** The rating a pair earns from its dates and titles alone, or null when neither agrees. */
function rateEvidence(anidb: PreparedEpisode, tmdb: PreparedEpisode, options: MatchEpisodesOptions): Candidate | null {
  const dayGap = anidb.day !== null && tmdb.day !== null ? Math.abs(anidb.day - tmdb.day) : UNKNOWN_DAY_GAP;
  const datesAgree = dayGap <= (options.dateToleranceDays ?? 1);
  const similarity = bestTitleSimilarity(anidb.titles, tmdb.titles);
  const titlesMatch = similarity === 1;
  const titlesKindaMatch = !titlesMatch && similarity >= (options.fuzzyTitleThreshold ?? 0.6);
  let rating: TmdbMatchRating | null = null;
  if (datesAgree) rating = titlesMatch ? 'DateAndTitleMatches' : titlesKindaMatch ? 'DateAndTitleKindaMatches' : 'DateMatches';
  else if (titlesMatch) rating = 'TitleMatches';
  else if (titlesKindaMatch) rating = 'TitleKindaMatches';
  return rating ? { anidb, tmdb, rating, dayGap, similarity } : null;
}

function linkByEvidence(
  anidb: readonly PreparedEpisode[],
  tmdb: readonly PreparedEpisode[],
  links: Map<number, EpisodeLink>,
  usedTmdb: Set<number>,
  options: MatchEpisodesOptions,
): void {
  const candidates: Candidate[] = [];
  for (const a of anidb) {
    if (links.has(a.id)) continue;
    for (const t of tmdb) {
      if (usedTmdb.has(t.id)) continue;
      const candidate = rateEvidence(a, t, options);
      if (candidate) candidates.push(candidate);
    }
  }
  candidates.sort(
    (x, y) =>
      EVIDENCE_STRENGTH[y.rating]! - EVIDENCE_STRENGTH[x.rating]! ||
      x.dayGap - y.dayGap ||
      y.similarity - x.similarity ||
      Math.abs(x.anidb.position - x.tmdb.position) - Math.abs(y.anidb.position - y.tmdb.position),
  );
  for (const { anidb: a, tmdb: t, rating } of candidates) {
    if (links.has(a.id) || usedTmdb.has(t.id)) continue;
    links.set(a.id, { anidbEpisodeId: a.id, tmdbEpisodeId: t.id, rating });
    usedTmdb.add(t.id);
  }
}

function linkByPosition(
  anidb: readonly PreparedEpisode[],
  tmdb: readonly PreparedEpisode[],
  links: Map<number, EpisodeLink>,
  usedTmdb: Set<number>,
): void {
  const tmdbPosition = new Map(tmdb.map((episode) => [episode.id, episode.position]));
  const linkedPosition = (episode: PreparedEpisode): number | undefined => {
    const link = links.get(episode.id);
    return link ? tmdbPosition.get(link.tmdbEpisodeId) : undefined;
  };
  for (const [index, episode] of anidb.entries()) {
    if (links.has(episode.id)) continue;
    let after = -1;
    for (let i = index - 1; i >= 0; i--) {
      const position = linkedPosition(anidb[i]);
      if (position !== undefined) {
        after = position;
        break;
      }
    }
    let before = tmdb.length;
    for (let i = index + 1; i < anidb.length; i++) {
      const position = linkedPosition(anidb[i]);
      if (position !== undefined) {
        before = position;
        break;
      }
    }
    const free = tmdb.find((t) => t.position > after && t.position < before && !usedTmdb.has(t.id));
    if (!free) continue;
    links.set(episode.id, { anidbEpisodeId: episode.id, tmdbEpisodeId: free.id, rating: 'FirstAvailable' });
    usedTmdb.add(free.id);
  }
}
