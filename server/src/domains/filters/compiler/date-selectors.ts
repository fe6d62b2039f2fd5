import type { FilterCondition } from '@shoko-ts/contract';
import { stripExpressionId } from '../filter-catalogue.js';
import { SERIES_JOINS, type Candidates } from './candidates.js';
import { shiftDate } from './dialect.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { addDays, child, kindOf, param, parseTimeSpanDays } from './parameters.js';

/**
 * A DateAdd/DateDiff (of DateAdds/DateDiffs) of a date selector other than Today, as that date and the days it is
 * moved by; null for anything else (Today's shift is a constant already).
 */
export function shiftedDate(node: FilterCondition): { date: FilterCondition; days: number } | null {
  const id = stripExpressionId(node.Type);
  if (id !== 'DateAdd' && id !== 'DateDiff') return null;
  const days = parseTimeSpanDays(param(node)) * (id === 'DateAdd' ? 1 : -1);
  const left = child(node, 'Left');
  if (stripExpressionId(left.Type) === 'Today') return null;
  const inner = shiftedDate(left);
  return inner ? { date: inner.date, days: inner.days + days } : { date: left, days };
}

/** A DateSelector node (Today, DateAdd, DateDiff or a date of the candidate) as `yyyy-MM-dd` text. */
export function dateExpr(c: Candidates, node: FilterCondition): Sql {
  const id = stripExpressionId(node.Type);
  if (kindOf(node) !== 'DateSelector') throw new FilterError(`'${node.Type}' is not a date selector.`);
  if (id === 'Today') return sql`CAST(${c.scope.today} AS TEXT)`;
  if (id === 'DateAdd' || id === 'DateDiff') {
    const days = parseTimeSpanDays(param(node)) * (id === 'DateAdd' ? 1 : -1);
    const left = child(node, 'Left');
    if (stripExpressionId(left.Type) === 'Today') return sql`CAST(${addDays(c.scope.today, days)} AS TEXT)`;
    return shiftDate(c.scope.dialect, dateExpr(c, left), days);
  }
  return dateSelector(c, id);
}

/** A date selector as `yyyy-MM-dd` text (NULL when unknown): a column, or a figure over the candidate's series. */
export function dateSelector(c: Candidates, id: string): Sql {
  if (c.scope.level === 'series') {
    const direct: Record<string, string> = {
      AirDate: 'ia.air_date',
      LastAirDate: 'COALESCE(ia.end_date, ia.air_date)',
      AddedDate: 'substr(it.created_at, 1, 10)',
    };
    if (direct[id]) return raw(`(${direct[id]})`);
  }
  const maintained = c.maintainedFigure(id);
  if (maintained) return maintained;
  const anime = (aggregate: string) => c.figure(id, aggregate, { joins: SERIES_JOINS.anime });
  switch (id) {
    case 'AirDate':
      return anime('MIN(a.air_date)');
    case 'LastAirDate':
      return anime('MAX(COALESCE(a.end_date, a.air_date))');
    case 'AddedDate':
      return c.figure(id, 'MIN(substr(xs.created_at, 1, 10))', {});
    case 'LastAddedDate':
      return c.figure(id, 'MAX(sa.last_added)', { joins: SERIES_JOINS.aggregates });
    case 'WatchedDate':
      return c.figure(id, 'MIN(ua.first_watched)', { joins: c.userAggJoin('JOIN') });
    case 'LastWatchedDate':
      return c.figure(id, 'MAX(ua.last_watched)', { joins: c.userAggJoin('JOIN') });
  }
  throw new FilterError(`'${id}' is not a date selector.`);
}
