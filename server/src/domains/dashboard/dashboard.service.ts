/**
 * DESIGN — dashboard domain: the read-only aggregates of `GET /api/v3/Dashboard/*` (stats, series summary, recently
 * added, continue watching, next up, calendars, top tags) and `Series/AniDB/RecommendedForYou` (contract
 * collection.md §10, §5.3). Routes: dashboard.routes.ts; SQL: dashboard.store.ts. It reads the collection through the
 * series domain's SeriesModels (who may see which series, Series models) and never writes; the routes cache whole
 * answers in the shared read cache, which every change clears.
 */
import type {
  AnidbAnimeRecommendedForYou,
  DashboardAniDBCalendarQuery,
  DashboardCalendarEpisodesQuery,
  DashboardCollectionStats,
  DashboardEpisode,
  DashboardEpisodeListQuery,
  DashboardNextUpQuery,
  DashboardRecentlyAddedEpisodesQuery,
  DashboardRecentlyAddedSeriesQuery,
  DashboardSeriesSummary,
  DashboardTopTagsQuery,
  RecommendedForYouQuery,
  Series,
  Tag,
} from '@shoko-ts/contract';
import { validationError } from '../../http/problem.js';
import type { SeriesModels } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';
import { TagFilterBits } from '../tags/index.js';
import type { IncludeOnly } from './dashboard-sql.store.js';
import type { DashboardStore } from './dashboard.store.js';

type List<T> = { Total: number; List: T[] };

/** IncludeOnlyFilter (`true`, `false`, `only`, any casing); anything else is a 400 naming the parameter. */
function includeOnly(value: string | undefined, field: string): IncludeOnly {
  if (value === undefined || value === '') return 'false';
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'only') return lower;
  throw validationError(field, `The value '${value}' is not valid for ${field}; use true, false or only.`);
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** TagFilter.Filter: a number or flag names joined with commas; the default drops AniDB-internal, misc and source tags. */
function tagFilterValue(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return TagFilterBits.AnidbInternal + TagFilterBits.Misc + TagFilterBits.Source;
  let value = 0;
  for (const item of raw.split(',').map((part) => part.trim())) {
    const flag = Object.entries(TagFilterBits).find(([name]) => name.toLowerCase() === item.toLowerCase());
    if (/^\d+$/.test(item)) value += Number(item);
    else if (flag) value += flag[1];
    else throw validationError('filter', `The value '${item}' is not a tag filter flag.`);
  }
  return value;
}

const episodeListOptions = (query: { includeSpecials: boolean; includeOthers: boolean; includeRestricted?: string }) => ({
  includeSpecials: query.includeSpecials,
  includeOthers: query.includeOthers,
  restricted: includeOnly(query.includeRestricted, 'includeRestricted'),
});

/** The dashboard's rules: query values parsed and checked, then one store aggregate per panel. `userId` null = first-run principal. */
export class DashboardService {
  constructor(
    private readonly store: DashboardStore,
    private readonly series: Pick<SeriesModels, 'viewer' | 'seriesModels'>,
  ) {}

  private viewer(userId: number | null): Promise<Viewer> {
    return this.series.viewer(userId);
  }

  async stats(userId: number | null): Promise<DashboardCollectionStats> {
    return this.store.stats(await this.viewer(userId), todayUtc());
  }

  async seriesSummary(userId: number | null): Promise<DashboardSeriesSummary> {
    return this.store.seriesSummary(await this.viewer(userId));
  }

  async recentlyAddedEpisodes(userId: number | null, query: DashboardRecentlyAddedEpisodesQuery): Promise<List<DashboardEpisode>> {
    const viewer = await this.viewer(userId);
    const restricted = includeOnly(query.includeRestricted, 'includeRestricted');
    return this.store.recentlyAddedEpisodes(viewer, { page: query.page, pageSize: query.pageSize }, restricted);
  }

  async recentlyAddedSeries(userId: number | null, query: DashboardRecentlyAddedSeriesQuery): Promise<List<Series>> {
    const viewer = await this.viewer(userId);
    const { Total, ids } = await this.store.recentlyAddedSeriesIds(
      viewer,
      { page: query.page, pageSize: query.pageSize },
      includeOnly(query.includeRestricted, 'includeRestricted'),
    );
    return { Total, List: await this.series.seriesModels(ids, viewer) };
  }

  /** Built from the resume positions players report through File/{id}/Scrobble. */
  async continueWatching(userId: number | null, query: DashboardEpisodeListQuery): Promise<List<DashboardEpisode>> {
    const { page, pageSize } = query;
    return this.store.continueWatching(await this.viewer(userId), { page: Math.max(page, 1), pageSize }, episodeListOptions(query));
  }

  async nextUp(userId: number | null, query: DashboardNextUpQuery): Promise<List<DashboardEpisode>> {
    return this.store.nextUp(
      await this.viewer(userId),
      { page: Math.max(query.page, 1), pageSize: query.pageSize },
      {
        ...episodeListOptions(query),
        includeMissing: query.includeMissing,
        onlyUnwatched: query.onlyUnwatched,
      },
    );
  }

  /** `Dashboard/AniDBCalendar`: the next `numberOfDays` days from today (UTC). */
  async anidbCalendar(userId: number | null, query: DashboardAniDBCalendarQuery): Promise<DashboardEpisode[]> {
    const { numberOfDays, showAll, includeRestricted } = query;
    const from = todayUtc();
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + numberOfDays * 86_400_000).toISOString().slice(0, 10);
    return this.store.calendar(await this.viewer(userId), { from, to }, showAll ? 'true' : 'false', includeRestricted ? 'true' : 'false');
  }

  async calendarEpisodes(userId: number | null, query: DashboardCalendarEpisodesQuery): Promise<DashboardEpisode[]> {
    const { startDate, endDate, includeMissing, includeRestricted } = query;
    for (const [field, value] of [
      ['startDate', startDate],
      ['endDate', endDate],
    ] as const)
      if (Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw validationError(field, `The value '${value}' is not a valid date.`);
    if (startDate > endDate) throw validationError('startDate', 'Start date cannot be after the end date.');
    return this.store.calendar(
      await this.viewer(userId),
      { from: startDate, to: endDate },
      includeOnly(includeMissing, 'includeMissing'),
      includeOnly(includeRestricted, 'includeRestricted'),
    );
  }

  async topTags(userId: number | null, query: DashboardTopTagsQuery): Promise<Tag[]> {
    const { page, pageSize, filter } = query;
    return this.store.topTags(await this.viewer(userId), { page, pageSize }, tagFilterValue(filter));
  }

  async recommended(userId: number | null, query: RecommendedForYouQuery): Promise<List<AnidbAnimeRecommendedForYou>> {
    const { page, pageSize, showAll, startDate, endDate, approval, includeRestricted } = query;
    if (endDate && !startDate) throw validationError('startDate', 'Missing start date.');
    if (endDate && Date.parse(endDate) > Date.now()) throw validationError('endDate', 'End date cannot be set into the future.');
    if (startDate && endDate && Date.parse(startDate) > Date.parse(endDate))
      throw validationError('startDate', 'Start date cannot be newer than the end date.');
    return this.store.recommended(
      await this.viewer(userId),
      { page, pageSize },
      {
        showAll,
        restricted: includeOnly(includeRestricted, 'includeRestricted'),
        start: startDate ? new Date(startDate).toISOString() : null,
        end: endDate ? new Date(endDate).toISOString() : null,
        approval,
      },
    );
  }
}
