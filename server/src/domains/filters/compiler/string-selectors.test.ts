import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { raw } from './fragments.js';
import { candidateNames, nameOf, names, showsImage, stringExpr, stringSet, stringSetById } from './string-selectors.js';

const series = new Candidates(testScope());
const group = new Candidates(testScope({ level: 'group' }));
const nested = new Candidates(testScope({ level: 'group', nested: true }));

describe('string selectors', () => {
  it("name a series by its override or its anime's main title, a group by its name", () => {
    expect(compileSql(nameOf(series)).text).toBe("COALESCE(it.title_override, ia.main_title, '')");
    expect(compileSql(stringExpr(group, { Type: 'Name' })).text).toBe('it.name');
    expect(() => stringExpr(group, { Type: 'Names' })).toThrow("'Names' is not a string selector.");
  });

  it('give a set as (candidate, value) rows over the series of each candidate', () => {
    expect(compileSql(stringSet(group, { Type: 'AnidbTagIDs' })).text).toBe(
      'SELECT xs.group_id AS k, CAST(at.tag_id AS TEXT) AS v FROM series xs JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id',
    );
    expect(compileSql(stringSetById(nested, 'ImportFolderIDs')).text).toBe(
      'SELECT od.root AS k, CAST(sf.import_folder_id AS TEXT) AS v FROM series xs JOIN gdesc od ON od.id = xs.group_id JOIN series_file_folders sf ON sf.series_id = xs.id',
    );
    expect(() => stringSet(group, { Type: 'Name' })).toThrow("'Name' is not a string-set selector.");
    expect(() => stringSetById(group, 'Bogus')).toThrow("'Bogus' is not a string-set selector.");
  });

  it("give a series' names from its titles, override and group (and the top group when groups nest), with folds when asked", () => {
    const text = compileSql(names(nested, (kind, alias) => raw(`${alias}.${kind} = 1`), true)).text;
    expect(text).toBe(
      'SELECT od.root AS k, t.value AS v, t.folded AS f FROM series xs JOIN gdesc od ON od.id = xs.group_id JOIN anidb_anime_titles t ON t.anime_id = xs.anime_id WHERE t.titles = 1 ' +
        'UNION ALL SELECT od.root AS k, xs.title_override AS v, xs.title_override_folded AS f FROM series xs JOIN gdesc od ON od.id = xs.group_id WHERE xs.title_override IS NOT NULL AND xs.overrides = 1 ' +
        'UNION ALL SELECT od.root AS k, g.name AS v, g.name_folded AS f FROM series xs JOIN gdesc od ON od.id = xs.group_id JOIN gup u ON u.id = xs.group_id JOIN groups g ON g.id IN (u.id, u.top) WHERE g.groups = 1',
    );
  });

  it("give every candidate's own name, with its fold when asked", () => {
    expect(compileSql(candidateNames(group, true)).text).toBe('SELECT it.id AS k, it.name AS v, it.name_folded AS f FROM groups it');
    expect(compileSql(candidateNames(series)).text).toBe(
      "SELECT it.id AS k, COALESCE(it.title_override, ia.main_title, '') AS v FROM series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id",
    );
  });

  it('find a poster in the AniDB picture or the TMDB images, other types in the TMDB images only', () => {
    const poster = compileSql(showsImage('it', 'ia', 'poster'));
    expect(poster.text).toMatch(
      /^\(ia\.picture IS NOT NULL AND ia\.picture <> '' OR it\.anime_id IN \(SELECT x\.anime_id FROM xref_anidb_tmdb_show x/,
    );
    expect(poster.parameters).toEqual(['poster', 'poster', 'poster']);
    expect(compileSql(showsImage('xs', 'a', 'backdrop')).text).toMatch(
      /^xs\.anime_id IN \(.* UNION ALL .* UNION ALL .*xref_anidb_tmdb_movie x/,
    );
  });
});
