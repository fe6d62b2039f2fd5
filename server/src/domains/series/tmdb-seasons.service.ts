import { TMDB_SEASON_INCLUDE_DETAILS, type TmdbSeason } from '@shoko-ts/contract';
import { textError } from '../../http/problem.js';
import type { ImageType, ImagesService } from '../images/index.js';
import type { SeriesAccess } from './series-access.js';
import type { SeriesStore } from './series.store.js';
import type { TmdbSeasonsStore } from './tmdb-seasons.store.js';

export const TMDB_SHOW_NOT_FOUND_FOR_SERIES = 'No TMDB.Show entry for the given seriesID';
export const TMDB_SHOW_FORBIDDEN = 'Accessing TMDB.Show is not allowed for the current user';

type SeasonInclude = (typeof TMDB_SEASON_INCLUDE_DETAILS)[number];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SEASON_NAMES = ['Winter', 'Spring', 'Summer', 'Fall'];
const IMAGE_LISTS: Record<string, 'Posters' | 'Backdrops' | 'Logos'> = { Poster: 'Posters', Backdrop: 'Backdrops', Logo: 'Logos' };

/** `include` values, repeated or comma-separated, any casing; unknown ones are skipped as the contract's set binder does. */
function includeSet(raw: string | string[] | undefined): Set<SeasonInclude> {
  const wanted = new Set<SeasonInclude>();
  for (const item of (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => v.split(','))) {
    const match = TMDB_SEASON_INCLUDE_DETAILS.find((d) => d.toLowerCase() === item.trim().toLowerCase());
    if (match) wanted.add(match);
  }
  return wanted;
}

/** Every yearly season from the first to the last air date. */
function yearlySeasons(dates: string[]) {
  if (!dates.length) return [];
  const sorted = [...dates].sort();
  const quarter = (date: string) => Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
  const result: Array<{ Year: number; AnimeSeason: string }> = [];
  for (let q = quarter(sorted[0]); q <= quarter(sorted[sorted.length - 1]); q++)
    result.push({ Year: Math.floor(q / 4), AnimeSeason: SEASON_NAMES[q % 4] });
  return result;
}

/**
 * GET Series/{id}/TMDB/Season: the TMDB seasons (of the default season ordering) that the series' episodes are linked
 * into, ordered by show and season number, in the same shape conventions as the other TMDB models.
 */
export class TmdbSeasons {
  constructor(
    private readonly deps: {
      access: SeriesAccess;
      series: Pick<SeriesStore, 'series'>;
      store: TmdbSeasonsStore;
      images: Pick<ImagesService, 'model' | 'disabledKeys'>;
    },
  ) {}

  async ofSeries(userId: number | null, seriesId: number, query: { include?: string | string[] }): Promise<TmdbSeason[]> {
    const include = includeSet(query.include);
    const series = await this.deps.series.series(seriesId);
    if (!series) throw textError(404, TMDB_SHOW_NOT_FOUND_FOR_SERIES);
    if (!(await this.deps.access.isAnimeAllowed(await this.deps.access.viewer(userId), series.anime_id)))
      throw textError(403, TMDB_SHOW_FORBIDDEN);

    const seasons = await this.deps.store.seasonsOfAnime(series.anime_id);
    const ids = seasons.map((s) => s.id);
    const airDates = new Map<number, string[]>(ids.map((id) => [id, []]));
    const stored = new Map<number, number>();
    for (const episode of await this.deps.store.episodesOfSeasons(ids)) {
      stored.set(episode.season_id, (stored.get(episode.season_id) ?? 0) + 1);
      if (episode.aired_at) airDates.get(episode.season_id)!.push(episode.aired_at.slice(0, 10));
    }
    const images = include.has('Images') ? await this.images(ids) : null;

    return seasons.map((season) => {
      const dates = airDates.get(season.id)!;
      return {
        ID: String(season.id),
        ShowID: season.show_id,
        AlternateOrderingID: String(season.show_id),
        Title: season.title,
        ...(include.has('Titles')
          ? { Titles: [{ Name: season.title, Language: 'en', Type: 'None', Default: true, Preferred: true, Source: 'TMDB' }] }
          : {}),
        Overview: season.overview,
        ...(include.has('Overviews')
          ? {
              Overviews: season.overview
                ? [{ Value: season.overview, Language: 'en', Default: true, Preferred: true, Source: 'TMDB' }]
                : [],
            }
          : {}),
        ...(images ? { Images: images.get(season.id)! } : {}),
        // Credits are stored per show and movie, not per episode, so a season has none of its own.
        ...(include.has('Cast') ? { Cast: [] } : {}),
        ...(include.has('Crew') ? { Crew: [] } : {}),
        ...(include.has('DaysOfWeek')
          ? {
              DaysOfWeek: [...new Set(dates.map((d) => new Date(`${d}T00:00:00Z`).getUTCDay()))]
                .sort((a, b) => a - b)
                .map((day) => DAYS[day]),
            }
          : {}),
        ...(include.has('YearlySeasons') ? { YearlySeasons: yearlySeasons(dates) } : {}),
        SeasonNumber: season.season_number,
        EpisodeCount: stored.get(season.id) ?? season.episode_count,
        HiddenEpisodeCount: 0,
        IsLocked: false,
        CreatedAt: season.created_at,
        LastUpdatedAt: season.updated_at,
      } satisfies TmdbSeason;
    });
  }

  /** The enabled posters, backdrops and logos of each season. */
  private async images(seasonIds: number[]) {
    const result = new Map(
      seasonIds.map((id) => [id, { Posters: [], Backdrops: [], Banners: [], Logos: [] } as NonNullable<TmdbSeason['Images']>]),
    );
    const disabled = await this.deps.images.disabledKeys();
    for (const row of await this.deps.store.seasonImages(seasonIds)) {
      if (disabled.has(`TMDB:${row.image_type}:${row.id}`)) continue;
      const list = IMAGE_LISTS[row.image_type];
      if (!list) continue;
      result.get(row.parent_id)![list].push({
        ...this.deps.images.model('TMDB', row.image_type as ImageType, row.id),
        LanguageCode: row.language,
        Width: row.width,
        Height: row.height,
      });
    }
    return result;
  }
}
