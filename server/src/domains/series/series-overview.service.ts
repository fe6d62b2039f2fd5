import { NextUpEpisodeQuery, SeriesTagsQuery, type Group, type WebUISeriesOverview } from '@shoko-ts/contract';
import { Value } from '@sinclair/typebox/value';
import { HttpError } from '../../http/problem.js';
import type { TagsService } from '../tags/index.js';
import type { SeriesService } from './series.service.js';

/**
 * `Group/{id}`'s answer for a viewer, given by the app: the groups domain reads series, so this one does not import it.
 * Throws the route's 403/404 as that route would.
 */
export type GroupAnswer = (userId: number | null, groupId: number) => Promise<Group>;

/**
 * `WebUI/Series/{id}/Overview` (our addition): the panels of the series page's header and Overview tab, each answered
 * by the service behind its own route with the query the console gives that route, so every key equals that route's
 * answer. The series' own 404/403 come first, as every one of those routes would give them.
 */
export class SeriesOverview {
  constructor(
    private readonly deps: {
      series: Pick<SeriesService, 'parentGroupId' | 'webuiExtras' | 'nextUpEpisode' | 'related' | 'similar' | 'cast'>;
      tags: Pick<TagsService, 'seriesTags'>;
      group: GroupAnswer;
    },
  ) {}

  async overview(userId: number | null, seriesId: number): Promise<WebUISeriesOverview> {
    const { series, tags, group } = this.deps;
    const groupId = await series.parentGroupId(userId, seriesId);
    // Series/{id}/Tags?onlyVerified=false: no filter given is filter 0 (every kind of tag).
    const tagQuery = { ...(Value.Default(SeriesTagsQuery, { onlyVerified: false }) as SeriesTagsQuery), filter: 0 };
    const nextUpQuery = Value.Default(NextUpEpisodeQuery, { includeDataFrom: 'AniDB' }) as NextUpEpisodeQuery;
    const [Extra, Tags, Group, NextUpEpisode, Related, Similar, Cast] = await Promise.all([
      series.webuiExtras(userId, seriesId),
      tags.seriesTags(userId, seriesId, tagQuery),
      // A group holding a series the viewer may not see is refused by Group/{id}: the console then asks that route.
      group(userId, groupId).catch((error: unknown) => {
        if (error instanceof HttpError && (error.status === 403 || error.status === 404)) return null;
        throw error;
      }),
      series.nextUpEpisode(userId, seriesId, nextUpQuery),
      series.related(userId, seriesId),
      series.similar(userId, seriesId),
      series.cast(userId, seriesId, undefined),
    ]);
    return { Extra, Tags, Group, NextUpEpisode, Related, Similar, Cast };
  }
}
