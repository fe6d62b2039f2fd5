import type { SortingCriteria } from '@shoko-ts/contract';
import { EXPRESSION_BY_ID, SORTING_CRITERIA } from '../filter-catalogue.js';
import type { Candidates } from './candidates.js';
import { dateSelector } from './date-selectors.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { numberSelector } from './number-selectors.js';
import { nameOf } from './string-selectors.js';

/** ORDER BY terms for a sorting chain (by name when none), ending with the candidate id; unknown criteria raise. */
export function orderBy(c: Candidates, sorting: SortingCriteria | null | undefined): Sql {
  const terms: Sql[] = [];
  for (let s: SortingCriteria | null | undefined = sorting ?? { Type: 'Name', IsInverted: false }; s; s = s.Next) {
    const key = sortKey(c, s.Type);
    // Names are never NULL; other keys sort NULLs last in either direction. NULLS LAST (not a CASE term before the
    // key) so a key that is a sub-query runs once per candidate: PostgreSQL ran it twice.
    const direction = s.IsInverted ? 'DESC' : 'ASC';
    terms.push(sql`${key} ${raw(s.Type === 'Name' || s.Type === 'SortingName' ? direction : `${direction} NULLS LAST`)}`);
  }
  terms.push(raw('it.id ASC'));
  return sql.join(terms);
}

function sortKey(c: Candidates, type: string): Sql {
  if (!SORTING_CRITERIA.some((criterion) => criterion.type === type)) throw new FilterError(`Unknown sorting type '${type}'.`);
  // A series sorts by name as GET Series does, by its name-order key (db/name-order.ts: its JS-lower-cased name, code
  // unit by code unit, the same on both databases; an index of 0042). Sorting names, it reads the lower-cased name
  // kept on its row (series.name_key, migration 0040) and needs no AniDB anime row.
  if (type === 'Name' && c.scope.level === 'series') return raw('it.order_key');
  const name = c.scope.level === 'series' ? raw('it.name_key') : sql`lower(${nameOf(c)})`;
  if (type === 'Name') return name;
  if (type === 'SortingName') {
    return sql`CASE WHEN ${name} LIKE 'the %' THEN substr(${name}, 5) WHEN ${name} LIKE 'an %' THEN substr(${name}, 4) WHEN ${name} LIKE 'a %' THEN substr(${name}, 3) ELSE ${name} END`;
  }
  const spec = EXPRESSION_BY_ID.get(type)!;
  return spec.type === 'DateSelector' ? dateSelector(c, type) : numberSelector(c, type);
}
