import type { AniDBEpisodeType, AnimeEpisodeSpec } from './collection.js';

/** AniDB episode id of an anime's episode: the anime id × 100 plus a slot per type (regular 1–39, specials 40–59, ...). */
const TYPE_SLOTS: Record<AniDBEpisodeType, number> = { 1: 0, 3: 40, 2: 60, 4: 70, 5: 80, 6: 90 };

export const anidbEpisodeId = (animeId: number, type: AniDBEpisodeType, number: number): number =>
  animeId * 100 + TYPE_SLOTS[type] + number;

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

export interface EpisodePlan {
  type: AniDBEpisodeType;
  number: number;
  minutes: number;
  airDate: string | null;
  english: string;
  romaji?: string;
  japanese?: string;
}

export function episodeOf(animeId: number, plan: EpisodePlan): AnimeEpisodeSpec {
  const titles = [{ language: 'en', value: plan.english }];
  if (plan.romaji) titles.push({ language: 'x-jat', value: plan.romaji });
  if (plan.japanese) titles.push({ language: 'ja', value: plan.japanese });
  const seed = animeId + plan.number * 7 + plan.type * 13;
  return {
    id: anidbEpisodeId(animeId, plan.type, plan.number),
    type: plan.type,
    number: plan.number,
    lengthMinutes: plan.minutes,
    airDate: plan.airDate,
    titles,
    rating: 6 + (seed % 40) / 10,
    votes: 3 + (seed % 17),
    summary: plan.type === 1 && plan.number === 1 ? `The first episode of anime ${animeId}, invented for tests.` : '',
  };
}

/** Regular episodes airing weekly from `startDate`, titled by `titleOf`. */
export function weeklyEpisodes(
  animeId: number,
  startDate: string,
  count: number,
  minutes: number,
  titleOf: (number: number) => Pick<EpisodePlan, 'english' | 'romaji' | 'japanese'>,
): AnimeEpisodeSpec[] {
  return Array.from({ length: count }, (_, index) =>
    episodeOf(animeId, { type: 1, number: index + 1, minutes, airDate: addDays(startDate, index * 7), ...titleOf(index + 1) }),
  );
}

/** AniDB relation texts in the anime XML, and the lower-case names Shoko stores in AniDB_Anime_Relation. */
export const RELATION_NAMES: Record<string, string> = {
  Sequel: 'sequel',
  Prequel: 'prequel',
  'Same Setting': 'same setting',
  'Alternative Setting': 'alternative setting',
  'Alternative Version': 'alternative version',
  'Side Story': 'side story',
  'Parent Story': 'parent story',
  Summary: 'summary',
  'Full Story': 'full story',
  Character: 'character',
  Other: 'other',
};

/** AniDB's character appearance texts → Shoko's CharacterAppearanceType (v5.1 on). */
export const APPEARANCE_TYPES: Record<string, number> = {
  'main character in': 1,
  'secondary cast in': 2,
  'appears in': 3,
  'cameo appearance in': 4,
};

/** AniDB's staff role texts → Shoko's CreatorRoleType (v5.1 on); everything else is plain staff (1). */
export function creatorRoleType(role: string, company: boolean): number {
  if ((role === 'Animation Work' || role === 'Work') && company) return 2;
  const roles: Record<string, number> = {
    'Original Work': 8,
    Music: 7,
    'Character Design': 6,
    Direction: 4,
    'Series Composition': 5,
    'Chief Animation Direction': 3,
  };
  return roles[role] ?? 1;
}
