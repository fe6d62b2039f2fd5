import {
  DashboardAniDBCalendarQuery,
  DashboardEpisodeListQuery,
  DashboardNextUpQuery,
  DashboardRecentlyAddedEpisodesQuery,
  DashboardRecentlyAddedSeriesQuery,
  DASHBOARD_SUMMARY_WIDGETS,
  FileListQuery,
  RecommendedForYouQuery,
  type DashboardSummary,
  type DashboardSummaryQuery,
  type DashboardSummaryWidget,
} from '@shoko-ts/contract';
import type { TSchema, Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FilesService } from '../files/index.js';
import type { DashboardService } from './dashboard.service.js';

/** A route's query as its validation leaves it: the values given, every other parameter at the route's default. */
const routeQuery = <T extends TSchema>(schema: T, given: Record<string, unknown>): Static<T> =>
  Value.Default(schema, { ...given }) as Static<T>;

/**
 * `Dashboard/Summary`: the widgets asked for, each answered by the service behind its own route with the query that
 * route would have been given, so every key equals that route's answer.
 */
export class DashboardSummaryService {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly files: Pick<FilesService, 'listFromQuery'>,
  ) {}

  async summary(userId: number | null, query: DashboardSummaryQuery): Promise<DashboardSummary> {
    const { pageSize, onlyUnwatched, showAll } = query;
    const includeRestricted = String(query.includeRestricted);
    const answers: { [K in DashboardSummaryWidget]: () => Promise<NonNullable<DashboardSummary[K]>> } = {
      Stats: () => this.dashboard.stats(userId),
      SeriesSummary: () => this.dashboard.seriesSummary(userId),
      UnrecognizedFiles: () =>
        this.files.listFromQuery(
          routeQuery(FileListQuery, { pageSize, include_only: ['Unrecognized'], sortOrder: ['-FileID'], include: ['AbsolutePaths'] }),
          { viewerId: userId ?? undefined },
        ),
      RecentlyAddedEpisodes: () =>
        this.dashboard.recentlyAddedEpisodes(
          userId,
          routeQuery(DashboardRecentlyAddedEpisodesQuery, { pageSize: query.recentlyAddedEpisodesPageSize, includeRestricted }),
        ),
      RecentlyAddedSeries: () =>
        this.dashboard.recentlyAddedSeries(
          userId,
          routeQuery(DashboardRecentlyAddedSeriesQuery, { pageSize: query.recentlyAddedSeriesPageSize, includeRestricted }),
        ),
      ContinueWatchingEpisodes: () =>
        this.dashboard.continueWatching(userId, routeQuery(DashboardEpisodeListQuery, { pageSize, includeRestricted })),
      NextUpEpisodes: () => this.dashboard.nextUp(userId, routeQuery(DashboardNextUpQuery, { pageSize, onlyUnwatched, includeRestricted })),
      AniDBCalendar: () =>
        this.dashboard.anidbCalendar(
          userId,
          routeQuery(DashboardAniDBCalendarQuery, { showAll, includeRestricted: query.includeRestricted }),
        ),
      RecommendedForYou: () => this.dashboard.recommended(userId, routeQuery(RecommendedForYouQuery, { pageSize, includeRestricted })),
    };
    const asked = DASHBOARD_SUMMARY_WIDGETS.filter((widget) => query.widgets.includes(widget));
    const results = await Promise.all(asked.map((widget) => answers[widget]()));
    return Object.fromEntries(asked.map((widget, index) => [widget, results[index]])) as DashboardSummary;
  }
}
