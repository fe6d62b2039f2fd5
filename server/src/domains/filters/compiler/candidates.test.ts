import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { raw } from './fragments.js';

const text = (c: Candidates, f: Parameters<typeof compileSql>[0]) => compileSql(f, c.scope.dialect).text;

describe('the series of a candidate', () => {
  it('is its own row for a series, those of the group for a group, and of its sub-groups when groups nest', () => {
    const series = new Candidates(testScope());
    const group = new Candidates(testScope({ level: 'group' }));
    const nested = new Candidates(testScope({ level: 'group', nested: true }));
    expect(text(series, series.seriesOfCandidate(''))).toBe('FROM series xs WHERE xs.id = it.id');
    expect(text(group, group.seriesOfCandidate('', raw('xs.x = 1')))).toBe('FROM series xs WHERE xs.group_id = it.id AND xs.x = 1');
    // A nested group's subtree joined from the tree by its root (an index lookup), not a walk of the tree per group.
    expect(text(nested, nested.seriesOfCandidate('JOIN a ON a.id = xs.anime_id', raw('xs.x = 1')))).toBe(
      'FROM gdesc sd JOIN series xs ON xs.group_id = sd.id JOIN a ON a.id = xs.anime_id WHERE sd.root = it.id AND xs.x = 1',
    );
    expect(text(nested, nested.anySeries(raw('xs.x = 1'), '', 'exists'))).toBe(
      'EXISTS (SELECT 1 FROM gdesc sd JOIN series xs ON xs.group_id = sd.id WHERE sd.root = it.id AND xs.x = 1)',
    );
    expect(text(nested, nested.anySeries(raw('xs.x = 1')))).toBe(
      'it.id IN (SELECT od.root FROM series xs JOIN gdesc od ON od.id = xs.group_id WHERE xs.x = 1)',
    );
    expect(text(group, group.anySeries(raw('xs.x = 1'), '', 'exists'))).toBe(
      'EXISTS (SELECT 1 FROM series xs WHERE xs.group_id = it.id AND xs.x = 1)',
    );
  });

  it("reads a series' own row and anime directly, a group's through any of its series", () => {
    const where = (s: string, a: string) => raw(`${s}.id > 0 AND ${a}.type = 'TV'`);
    const series = new Candidates(testScope());
    const group = new Candidates(testScope({ level: 'group' }));
    expect(text(series, series.ownOrAnySeries(where, true))).toBe("(it.id > 0 AND ia.type = 'TV')");
    expect(text(group, group.ownOrAnySeries(where, true))).toBe(
      "it.id IN (SELECT xs.group_id FROM series xs JOIN anidb_anime a ON a.id = xs.anime_id WHERE xs.id > 0 AND a.type = 'TV')",
    );
  });
});

describe('a figure over the series of a candidate', () => {
  it('is a correlated sub-query per candidate by default, 0 where it has none when asked', () => {
    const c = new Candidates(testScope({ level: 'group' }));
    expect(text(c, c.figure('SeriesCount', 'COUNT(*)', { zero: true }))).toBe(
      '(SELECT COALESCE(COUNT(*), 0) FROM series xs WHERE xs.group_id = it.id)',
    );
    expect(text(c, c.joins())).toBe('');
  });

  it('with joinFigures is one grouped pass joined once per figure, by key', () => {
    const c = new Candidates(testScope({ level: 'group', joinFigures: true }));
    expect(text(c, c.figure('AirDate', 'MIN(a.air_date)', { joins: 'JOIN anidb_anime a ON a.id = xs.anime_id' }))).toBe('fig1.v');
    expect(text(c, c.figure('AirDate', 'MIN(a.air_date)', {}))).toBe('fig1.v');
    expect(text(c, c.figure('SeriesCount', 'COUNT(*)', { zero: true, where: raw('xs.x = 1') }))).toBe('COALESCE(fig2.v, 0)');
    expect(text(c, c.joins())).toBe(
      'LEFT JOIN (SELECT xs.group_id AS k, MIN(a.air_date) AS v FROM series xs JOIN anidb_anime a ON a.id = xs.anime_id GROUP BY xs.group_id) fig1 ON fig1.k = it.id ' +
        'LEFT JOIN (SELECT xs.group_id AS k, COUNT(*) AS v FROM series xs WHERE xs.x = 1 GROUP BY xs.group_id) fig2 ON fig2.k = it.id',
    );
  });

  it('with maintainedFigures is read from the rows kept for the candidate, joined once each', () => {
    const group = new Candidates(testScope({ level: 'group', maintainedFigures: true, userId: 7 }));
    expect(text(group, group.maintainedFigure('UnwatchedEpisodeCount')!)).toBe(
      'COALESCE(gf.local_episode_count - COALESCE(guf.watched_local_count, 0), 0)',
    );
    expect(text(group, group.maintainedFigure('AirDate')!)).toBe('(gf.air_date)');
    expect(group.maintainedFigure('HighestUserRating')).toBeNull();
    expect(text(group, group.joins())).toBe(
      'LEFT JOIN group_figures gf ON gf.group_id = it.id LEFT JOIN group_user_figures guf ON guf.group_id = it.id AND guf.user_id = 7',
    );
    const pg = new Candidates(testScope({ level: 'group', maintainedFigures: true, dialect: 'postgres' }));
    expect(text(pg, pg.maintainedFigure('AverageAniDBRating')!)).toBe(
      'COALESCE(CAST(gf.rating_sum AS numeric) / NULLIF(gf.rating_count, 0) / 100.0, 0)',
    );
    const series = new Candidates(testScope({ maintainedFigures: true }));
    expect(text(series, series.maintainedFigure('MissingEpisodeCollectingCount')!)).toBe('COALESCE(sff.collecting_missing_count, 0)');
    expect(series.maintainedFigure('AirDate')).toBeNull();
    expect(new Candidates(testScope()).maintainedFigure('VideoFiles')).toBeNull();
  });

  it('reads a maintained condition only at its level, failing where the row is missing', () => {
    const series = new Candidates(testScope({ maintainedFigures: true }));
    expect(series.maintainedCondition('group', ['gf'], raw('gf.file_count > 0'))).toBeNull();
    expect(text(series, series.maintainedCondition('series', ['so'], raw('so.file_count > 0'))!)).toBe(
      'COALESCE(so.file_count > 0, 1 = 0)',
    );
    expect(
      text(
        series,
        series.anyAggregates((sa) => raw(`${sa}.x > 0`)),
      ),
    ).toBe('COALESCE(so.x > 0, 1 = 0)');
    expect(text(series, series.joins())).toBe('LEFT JOIN series_aggregates so ON so.series_id = it.id');
    const plain = new Candidates(testScope());
    expect(
      text(
        plain,
        plain.anyAggregates((sa) => raw(`${sa}.x > 0`)),
      ),
    ).toBe('EXISTS (SELECT 1 FROM series_aggregates sa WHERE sa.series_id = it.id AND sa.x > 0)');
  });
});
