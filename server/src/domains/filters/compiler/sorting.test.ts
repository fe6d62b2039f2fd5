import type { SortingCriteria } from '@shoko-ts/contract';
import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { FilterError } from './fragments.js';
import type { FilterScope } from './scope.js';
import { orderBy } from './sorting.js';

const order = (sorting: SortingCriteria | null, over: Partial<FilterScope> = {}) =>
  compileSql(orderBy(new Candidates(testScope(over)), sorting)).text;

describe('sorting', () => {
  it('sorts by name when none is given: a series by its name-order key, a group by its lower-cased name, then by id', () => {
    expect(order(null)).toBe('it.order_key ASC, it.id ASC');
    expect(order(null, { level: 'group' })).toBe('lower(it.name) ASC, it.id ASC');
  });

  it('drops a leading article for the sorting name', () => {
    expect(order({ Type: 'SortingName', IsInverted: true })).toBe(
      "CASE WHEN it.name_key LIKE 'the %' THEN substr(it.name_key, 5) WHEN it.name_key LIKE 'an %' THEN substr(it.name_key, 4) WHEN it.name_key LIKE 'a %' THEN substr(it.name_key, 3) ELSE it.name_key END DESC, it.id ASC",
    );
  });

  it('sorts numbers and dates with NULLs last either way, following the chain', () => {
    expect(order({ Type: 'EpisodeCount', IsInverted: true, Next: { Type: 'AirDate', IsInverted: false } })).toBe(
      '(COALESCE(ia.episode_count, 0)) DESC NULLS LAST, (ia.air_date) ASC NULLS LAST, it.id ASC',
    );
  });

  it('refuses an unknown criterion', () => {
    expect(() => order({ Type: 'HasTag', IsInverted: false })).toThrow(new FilterError("Unknown sorting type 'HasTag'."));
  });
});
