import { describe, expect, it } from 'vitest';
import { compileSql } from '../../../test/compile-sql.js';
import { holds, holdsLiteral, pathSeparator, shiftDate } from './dialect.js';
import { sql } from './fragments.js';

const v = sql`q.v`;

describe('what SQLite and PostgreSQL spell differently', () => {
  it('finds a piece in a text with instr on SQLite and strpos on PostgreSQL', () => {
    expect(compileSql(holds('sqlite', v, 'ka'))).toEqual({ text: 'instr(q.v, ?) > 0', parameters: ['ka'] });
    expect(compileSql(holds('postgres', v, 'ka'), 'postgres')).toEqual({ text: 'strpos(q.v, $1) > 0', parameters: ['ka'] });
    expect(compileSql(holds('postgres', v, pathSeparator('postgres')), 'postgres').text).toBe('strpos(q.v, chr(31)) > 0');
    expect(compileSql(pathSeparator('sqlite')).text).toBe('char(31)');
  });

  it("moves a date with SQLite's date() and PostgreSQL's date arithmetic", () => {
    expect(compileSql(shiftDate('sqlite', v, 3))).toEqual({ text: 'date(q.v, ?)', parameters: ['+3 days'] });
    expect(compileSql(shiftDate('sqlite', v, -2)).parameters).toEqual(['-2 days']);
    expect(compileSql(shiftDate('postgres', v, -2), 'postgres')).toEqual({
      text: "to_char(CAST(q.v AS date) + CAST($1 AS INTEGER), 'YYYY-MM-DD')",
      parameters: [-2],
    });
  });

  describe('a text holding the literal every match of a pattern holds', () => {
    const prefix = { text: 'ka', written: 'Ka', prefix: true };
    const inside = { text: 'on', written: 'on', prefix: false };

    it('compares a case-sensitive prefix as written', () => {
      expect(compileSql(holdsLiteral('sqlite', v, prefix, true))).toEqual({ text: 'substr(q.v, 1, 2) = ?', parameters: ['Ka'] });
      expect(compileSql(holdsLiteral('postgres', v, prefix, true), 'postgres')).toEqual({ text: 'left(q.v, 2) = $1', parameters: ['Ka'] });
    });

    it("uses SQLite's LIKE (ASCII in either case) for any case", () => {
      expect(compileSql(holdsLiteral('sqlite', v, prefix, false))).toEqual({
        text: "substr(q.v, 1, 2) LIKE ? ESCAPE '\\'",
        parameters: ['ka'],
      });
      expect(compileSql(holdsLiteral('sqlite', v, inside, false))).toEqual({ text: "q.v LIKE ? ESCAPE '\\'", parameters: ['%on%'] });
    });

    it('on PostgreSQL lower-cases only an all-ASCII head for a prefix, the whole text otherwise', () => {
      expect(compileSql(holdsLiteral('postgres', v, prefix, false), 'postgres')).toEqual({
        text: '(octet_length(left(q.v, 2)) = 2 AND lower(left(q.v, 2)) = $1)',
        parameters: ['ka'],
      });
      expect(compileSql(holdsLiteral('postgres', v, inside, false), 'postgres')).toEqual({
        text: "lower(q.v) LIKE $1 ESCAPE '\\'",
        parameters: ['%on%'],
      });
    });
  });
});
