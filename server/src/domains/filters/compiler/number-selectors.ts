import type { FilterCondition } from '@shoko-ts/contract';
import { stripExpressionId } from '../filter-catalogue.js';
import { SERIES_JOINS, type Candidates } from './candidates.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { kindOf } from './parameters.js';

/** Some series of the candidate misses an episode a release group it has files from has released. */
export function hasCollectingGap(c: Candidates): Sql {
  return c.anySeries(raw('ff.collecting_missing_count > 0'), SERIES_JOINS.figures);
}

/** A NumberSelector node as a scalar. */
export function numberExpr(c: Candidates, node: FilterCondition): Sql {
  const id = stripExpressionId(node.Type);
  if (kindOf(node) !== 'NumberSelector') throw new FilterError(`'${node.Type}' is not a number selector.`);
  return numberSelector(c, id);
}

/** A number selector as a scalar (never NULL): a column, or a figure over the candidate's series. */
export function numberSelector(c: Candidates, id: string): Sql {
  // A series candidate already has its anime joined (`ia`): anime-level numbers need no sub-query.
  if (c.scope.level === 'series') {
    const direct: Record<string, string> = {
      SeriesCount: 'it.id * 0 + 1', // a bare constant in ORDER BY would mean a column number
      EpisodeCount: 'COALESCE(ia.episode_count, 0)',
      TotalEpisodeCount: 'COALESCE(ia.episode_count + ia.special_count, 0)',
      AverageAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
      HighestAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
      LowestAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
    };
    if (direct[id]) return raw(`(${direct[id]})`);
  }
  const maintained = c.maintainedFigure(id);
  if (maintained) return maintained;
  const uid = Math.trunc(c.scope.userId);
  const anime = (aggregate: string) => c.figure(id, aggregate, { joins: SERIES_JOINS.anime, zero: true });
  const votes = (aggregate: string, type = '') =>
    c.figure(id, aggregate, {
      joins: `JOIN user_series_votes v ON v.series_id = xs.id AND v.user_id = ${uid}${type ? ` AND v.vote_type = '${type}'` : ''}`,
      zero: true,
    });
  const values = (aggregate: string, where: Sql) =>
    // Series first, then their few value rows by key: with a plain join SQLite preferred the (kind, value) index and
    // read every series' values of that kind for each candidate (5.3 s for a collection page sorted by audio
    // language count at 100k files); CROSS JOIN makes it keep this order, PostgreSQL plans it as the join it is.
    c.figure(id, aggregate, {
      joins: 'CROSS JOIN series_aggregate_values v',
      where: sql`v.series_id = xs.id AND ${where}`,
      zero: true,
    });
  switch (id) {
    case 'SeriesCount':
      return c.figure(id, 'COUNT(*)', { zero: true });
    case 'EpisodeCount':
      return anime('SUM(a.episode_count)');
    case 'TotalEpisodeCount':
      return anime('SUM(a.episode_count + a.special_count)');
    case 'AverageAniDBRating':
      return anime('AVG(a.rating) / 100.0');
    case 'HighestAniDBRating':
      return anime('MAX(a.rating) / 100.0');
    case 'LowestAniDBRating':
      return anime('MIN(a.rating) / 100.0');
    case 'HighestUserRating':
      return votes('MAX(v.value)');
    case 'LowestUserRating':
      return votes('MIN(v.value)');
    case 'SeriesVoteCount':
      return votes('COUNT(*)');
    case 'SeriesPermanentVoteCount':
      return votes('COUNT(*)', 'Permanent');
    case 'SeriesTemporaryVoteCount':
      return votes('COUNT(*)', 'Temporary');
    case 'WatchedEpisodeCount':
      return c.figure(id, 'SUM(ua.watched_count)', { joins: c.userAggJoin('JOIN'), zero: true });
    case 'UnwatchedEpisodeCount':
      return c.figure(id, 'SUM(sa.local_episode_count - COALESCE(ua.watched_local_count, 0))', {
        joins: `${SERIES_JOINS.aggregates} ${c.userAggJoin('LEFT JOIN')}`,
        zero: true,
      });
    case 'MissingEpisodeCollectingCount': {
      const sum = c.figure(id, 'SUM(ff.collecting_missing_count)', { joins: SERIES_JOINS.figures, zero: true });
      if (c.scope.joinFigures) return sum;
      // Summed only for the candidates with a gap, found once (few have one), not probed per candidate.
      return sql`(CASE WHEN ${hasCollectingGap(c)} THEN ${sum} ELSE 0 END)`;
    }
    case 'MissingEpisodeCount':
      return values('SUM(v.file_count)', sql`v.kind = 'missing_air' AND v.value <= ${c.scope.today}`);
    case 'VideoFiles':
      // Per group, the sum over its series: a file linked to episodes of two of them counts twice.
      return c.figure(id, 'SUM(sa.file_count)', { joins: SERIES_JOINS.aggregates, zero: true });
    case 'AutomaticTmdbEpisodeLinks':
    case 'UserVerifiedTmdbEpisodeLinks': {
      const verified = id === 'UserVerifiedTmdbEpisodeLinks' ? '=' : '<>';
      return c.figure(id, 'COUNT(*)', {
        joins: 'JOIN xref_anidb_tmdb_episode x ON x.anime_id = xs.anime_id',
        where: raw(`x.tmdb_episode_id <> 0 AND x.rating ${verified} 'UserVerified'`),
        zero: true,
      });
    }
    case 'MissingTmdbEpisodeLinks':
      return c.figure(id, 'COUNT(*)', {
        joins: 'JOIN episodes e ON e.series_id = xs.id',
        where: raw(`e.is_hidden = 0
          AND EXISTS (SELECT 1 FROM xref_anidb_tmdb_show ts WHERE ts.anime_id = xs.anime_id)
          AND NOT EXISTS (SELECT 1 FROM xref_anidb_tmdb_episode x WHERE x.anidb_episode_id = e.anidb_episode_id AND x.tmdb_episode_id <> 0)`),
        zero: true,
      });
    case 'AudioLanguageCount':
    case 'SubtitleLanguageCount':
      return values('COUNT(DISTINCT v.value)', sql`v.kind = ${id === 'AudioLanguageCount' ? 'audio' : 'subtitle'}`);
  }
  throw new FilterError(`'${id}' is not a number selector.`);
}
