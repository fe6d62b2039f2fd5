import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { dateExpr, dateSelector, shiftedDate } from './date-selectors.js';

describe('date selectors', () => {
  it("read a series' dates from its own row and anime", () => {
    const c = new Candidates(testScope());
    expect(compileSql(dateSelector(c, 'LastAirDate')).text).toBe('(COALESCE(ia.end_date, ia.air_date))');
    expect(compileSql(dateSelector(c, 'AddedDate')).text).toBe('(substr(it.created_at, 1, 10))');
  });

  it("take a group's earliest or latest over its series", () => {
    const c = new Candidates(testScope({ level: 'group', userId: 2 }));
    expect(compileSql(dateSelector(c, 'AirDate')).text).toBe(
      '(SELECT MIN(a.air_date) FROM series xs JOIN anidb_anime a ON a.id = xs.anime_id WHERE xs.group_id = it.id)',
    );
    expect(compileSql(dateSelector(c, 'LastWatchedDate')).text).toBe(
      '(SELECT MAX(ua.last_watched) FROM series xs JOIN series_user_aggregates ua ON ua.series_id = xs.id AND ua.user_id = 2 WHERE xs.group_id = it.id)',
    );
    expect(() => dateSelector(c, 'SeriesCount')).toThrow("'SeriesCount' is not a date selector.");
  });

  it('make Today and a shift of Today constants', () => {
    const c = new Candidates(testScope({ today: '2026-03-30' }));
    expect(compileSql(dateExpr(c, { Type: 'Today' }))).toEqual({ text: 'CAST(? AS TEXT)', parameters: ['2026-03-30'] });
    expect(compileSql(dateExpr(c, { Type: 'DateAdd', Left: { Type: 'Today' }, Parameter: '3.00:00:00' })).parameters).toEqual([
      '2026-04-02',
    ]);
  });

  it('shift another date in SQL, each database its way', () => {
    const node = { Type: 'DateDiff', Left: { Type: 'AirDate' }, Parameter: '2.00:00:00' };
    expect(compileSql(dateExpr(new Candidates(testScope()), node))).toEqual({ text: 'date((ia.air_date), ?)', parameters: ['-2 days'] });
    expect(compileSql(dateExpr(new Candidates(testScope({ dialect: 'postgres' })), node), 'postgres')).toEqual({
      text: "to_char(CAST((ia.air_date) AS date) + CAST($1 AS INTEGER), 'YYYY-MM-DD')",
      parameters: [-2],
    });
    expect(() => dateExpr(new Candidates(testScope()), { Type: 'SeriesCount' })).toThrow("'SeriesCount' is not a date selector.");
  });

  it('fold nested shifts of a date into the date and its days', () => {
    const inner = { Type: 'DateDiff', Left: { Type: 'WatchedDate' }, Parameter: '10.00:00:00' };
    expect(shiftedDate({ Type: 'DateAdd', Left: inner, Parameter: '3.00:00:00' })).toEqual({ date: { Type: 'WatchedDate' }, days: -7 });
    expect(shiftedDate({ Type: 'DateAdd', Left: { Type: 'Today' }, Parameter: '3.00:00:00' })).toBeNull();
    expect(shiftedDate({ Type: 'AirDate' })).toBeNull();
  });
});
