import { describe, expect, it } from 'vitest';
import { compileSql } from '../../../test/compile-sql.js';
import { escapeLike, likeEscaped, likePattern, sql } from './fragments.js';

describe('LIKE patterns', () => {
  it('escapes a bound value: lower-cased, with %, _ and the backslash escaped', () => {
    expect(escapeLike('A_b%C\\d')).toBe('a\\_b\\%c\\\\d');
  });

  it('escapes an SQL value the same way, in SQL', () => {
    const { text, parameters } = compileSql(likeEscaped(sql`${'X'}`));
    expect(text).toBe("replace(replace(replace(lower(?), '\\', '\\\\'), '%', '\\%'), '_', '\\_')");
    expect(parameters).toEqual(['X']);
  });

  it('builds contains, starts-with and ends-with patterns around the escaped value', () => {
    const needle = sql`n.name`;
    expect(compileSql(likePattern(needle, 'contains')).text).toMatch(/^\('%' \|\| replace\(.*\) \|\| '%'\)$/);
    expect(compileSql(likePattern(needle, 'starts')).text).toMatch(/^\(replace\(.*lower\(n\.name\).*\) \|\| '%'\)$/);
    expect(compileSql(likePattern(needle, 'ends')).text).toMatch(/^\('%' \|\| replace\(.*\)\)$/);
  });
});
