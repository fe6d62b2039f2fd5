import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { raw, sql, type Sql } from './fragments.js';
import { filePathsMatch, filePathsMatchBySelector, namesAllMatch, namesMatch } from './name-matches.js';

const contains = (value: Sql) => sql`lower(${value}) LIKE ${'%ka%'}`;

describe('file paths', () => {
  it("are looked up in each series' maintained paths, a whole path closed by the separator", () => {
    const c = new Candidates(testScope({ level: 'group' }));
    const any = compileSql(filePathsMatch(c, { Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'Show_1' }, false)!);
    expect(any.text).toBe(
      "it.id IN (SELECT xs.group_id FROM series xs JOIN series_filter_figures ff ON ff.series_id = xs.id WHERE ff.file_paths LIKE ? ESCAPE '\\')",
    );
    expect(any.parameters).toEqual(['%show\\_1%']);
    const equals = compileSql(filePathsMatch(c, { Type: 'AnyEquals', Left: { Type: 'FilePaths' }, Parameter: 'a/b.mkv' }, true)!);
    expect(equals.parameters).toEqual(['%\u001fa/b.mkv\u001f%']);
  });

  it('leave a needle holding the separator, and other sets, to the generic form', () => {
    const c = new Candidates(testScope());
    expect(filePathsMatch(c, { Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'a\u001fb' }, false)).toBeNull();
    expect(filePathsMatch(c, { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'a' }, false)).toBeNull();
  });

  it('with the name as needle, fall back to the generic form only when the name holds the separator', () => {
    const c = new Candidates(testScope({ dialect: 'postgres' }));
    const node = { Type: 'AnyEquals', Left: { Type: 'FilePaths' }, Right: { Type: 'Name' } };
    const { text } = compileSql(filePathsMatchBySelector(c, node, true, raw('it.name_x'), raw('GENERIC'))!, 'postgres');
    expect(text).toMatch(
      /^\(CASE WHEN strpos\(it\.name_x, chr\(31\)\) > 0 THEN GENERIC ELSE EXISTS \(SELECT 1 FROM series xs JOIN series_filter_figures ff/,
    );
    expect(text).toContain("ff.file_paths LIKE ('%' || chr(31) || replace(");
  });
});

describe('names', () => {
  it('on SQLite narrow each kind of name by its trigram table, on PostgreSQL compare directly', () => {
    const node = { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'Kanon' };
    const sqlite = compileSql(namesMatch(new Candidates(testScope({ level: 'group' })), node, contains)!).text;
    expect(sqlite).toMatch(
      /^it\.id IN \(SELECT q\.k FROM \(SELECT xs\.group_id AS k, t\.value AS v FROM series xs JOIN anidb_anime_titles t .* WHERE t\.id IN \(/,
    );
    const pg = compileSql(namesMatch(new Candidates(testScope({ level: 'group', dialect: 'postgres' })), node, contains)!, 'postgres').text;
    expect(pg).toContain('WHERE lower(t.value) LIKE $1');
    expect(pg).not.toContain(' t.id IN');
  });

  it("find a series by its own anime's titles, its override and its group", () => {
    const node = { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'ka' };
    const { text } = compileSql(namesMatch(new Candidates(testScope({ dialect: 'postgres' })), node, contains)!, 'postgres');
    expect(text).toBe(
      '(it.anime_id IN (SELECT t.anime_id FROM anidb_anime_titles t WHERE lower(t.value) LIKE $1) OR (it.title_override IS NOT NULL AND lower(it.title_override) LIKE $2) ' +
        'OR it.group_id IN (SELECT g.id FROM groups g WHERE lower(g.name) LIKE $3))',
    );
  });

  it('hold for every name when none of any kind fails', () => {
    const node = { Type: 'AllContains', Left: { Type: 'Names' }, Parameter: 'ka' };
    const series = compileSql(namesAllMatch(new Candidates(testScope({ nested: true })), node, contains)!).text;
    expect(series).toMatch(
      /^\(NOT EXISTS \(SELECT 1 FROM anidb_anime_titles t WHERE t\.anime_id = it\.anime_id AND NOT \(lower\(t\.value\) LIKE \?\)\)/,
    );
    expect(series).toContain('FROM gup u JOIN groups g ON g.id IN (u.id, u.top) WHERE u.id = it.group_id');
    const group = compileSql(namesAllMatch(new Candidates(testScope({ level: 'group' })), node, contains)!).text;
    expect(group.match(/NOT EXISTS \(SELECT 1 FROM series xs/g)).toHaveLength(3);
    expect(
      namesAllMatch(new Candidates(testScope()), { Type: 'AllContains', Left: { Type: 'AnidbTags' }, Parameter: 'ka' }, contains),
    ).toBeNull();
  });
});
