import type { FilterCondition } from '@shoko-ts/contract';
import type { NameKind } from '../../../db/name-search.js';
import { stripExpressionId } from '../filter-catalogue.js';
import { SERIES_JOINS, type Candidates } from './candidates.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { kindOf } from './parameters.js';

/**
 * The images a series shows (see the series domain's images) besides its anime's AniDB poster (ANIDB_POSTER): the TMDB
 * images of its linked shows, their seasons and its linked movies; each the link (`x`, by `x.anime_id`) and the joins
 * from it to the image (`ti`).
 */
const TMDB_IMAGES = [
  { link: 'xref_anidb_tmdb_show x', image: "JOIN tmdb_images ti ON ti.parent_type = 'Show' AND ti.parent_id = x.show_id" },
  {
    link: 'xref_anidb_tmdb_show x',
    image: "JOIN tmdb_seasons se ON se.show_id = x.show_id JOIN tmdb_images ti ON ti.parent_type = 'Season' AND ti.parent_id = se.id",
  },
  { link: 'xref_anidb_tmdb_movie x', image: "JOIN tmdb_images ti ON ti.parent_type = 'Movie' AND ti.parent_id = x.movie_id" },
];
const ANIDB_POSTER = (anime: string) => `${anime}.picture IS NOT NULL AND ${anime}.picture <> ''`;

/** A StringSelector node as a value of the candidate. */
export function stringExpr(c: Candidates, node: FilterCondition): Sql {
  if (kindOf(node) !== 'StringSelector') throw new FilterError(`'${node.Type}' is not a string selector.`);
  return nameOf(c);
}

/** The item's name: the series' preferred title, or the group name. */
export function nameOf(c: Candidates): Sql {
  return c.scope.level === 'series' ? raw(`COALESCE(it.title_override, ia.main_title, '')`) : raw('it.name');
}

/** A StringSetSelector node as an uncorrelated sub-query of (k = candidate id, v = value) rows. */
export function stringSet(c: Candidates, node: FilterCondition): Sql {
  if (kindOf(node) !== 'StringSetSelector') throw new FilterError(`'${node.Type}' is not a string-set selector.`);
  return stringSetById(c, stripExpressionId(node.Type));
}

/**
 * The series row `series` (its anime `anime`) shows an image of `type` (lower case): the AniDB poster is a 'poster',
 * the TMDB images have theirs. Each source is looked up once by anime, not gathered with its type per series first:
 * PostgreSQL expected 200 series from that set and probed each of the 20,000 by index (75 ms at 400k files).
 */
export function showsImage(series: string, anime: string, type: string): Sql {
  const tmdb = sql.join(
    TMDB_IMAGES.map(({ link, image }) => sql`SELECT x.anime_id FROM ${raw(link)} ${raw(image)} WHERE lower(ti.image_type) = ${type}`),
    raw(' UNION ALL '),
  );
  const linked = sql`${raw(series)}.anime_id IN (${tmdb})`;
  return type === 'poster' ? sql`(${raw(ANIDB_POSTER(anime))} OR ${linked})` : linked;
}

/** A string-set selector by id as (k = candidate id, v = value) rows. */
export function stringSetById(c: Candidates, id: string): Sql {
  const k = c.ownerKey();
  const from = (join: string) => sql`FROM series xs ${c.ownerJoin()} ${raw(join)}`;
  const files = `${SERIES_JOINS.files} JOIN file_locations fl ON fl.file_id = f.id`;
  const folders = 'JOIN series_file_folders sf ON sf.series_id = xs.id';
  switch (id) {
    case 'Names':
      return names(c);
    case 'AniDBIDs':
      return sql`SELECT ${k} AS k, CAST(xs.anime_id AS TEXT) AS v ${from('')}`;
    case 'AnidbTags':
      return sql`SELECT ${k} AS k, t.name AS v ${from('JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id JOIN anidb_tags t ON t.id = at.tag_id')}`;
    case 'AnidbTagIDs':
      return sql`SELECT ${k} AS k, CAST(at.tag_id AS TEXT) AS v ${from('JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id')}`;
    case 'CustomTags':
      return sql`SELECT ${k} AS k, ct.name AS v ${from('JOIN series_custom_tags sct ON sct.series_id = xs.id JOIN custom_tags ct ON ct.id = sct.tag_id')}`;
    case 'CustomTagIDs':
      return sql`SELECT ${k} AS k, CAST(sct.tag_id AS TEXT) AS v ${from('JOIN series_custom_tags sct ON sct.series_id = xs.id')}`;
    case 'CharacterIDs':
      return sql`SELECT ${k} AS k, CAST(ac.character_id AS TEXT) AS v ${from('JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id')}`;
    case 'CreatorIDs':
      return sql`SELECT ${k} AS k, CAST(ast.creator_id AS TEXT) AS v ${from('JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id')}`;
    case 'FilePaths':
      return sql`SELECT ${k} AS k, fl.relative_path AS v ${from(files)}`;
    // From the maintained folders of each series' locations (migration 0039): one row per series and folder.
    case 'ImportFolderIDs':
      return sql`SELECT ${k} AS k, CAST(sf.import_folder_id AS TEXT) AS v ${from(folders)}`;
    case 'ImportFolderNames':
      return sql`SELECT ${k} AS k, inf.name AS v ${from(`${folders} JOIN import_folders inf ON inf.id = sf.import_folder_id`)}`;
    // From the maintained release groups of each series' files (migration 0049): one row per series and group.
    case 'ReleaseGroupNames':
      return sql`SELECT ${k} AS k, rg.name AS v ${from(`${SERIES_JOINS.values} JOIN anidb_release_groups rg ON CAST(rg.id AS TEXT) = v.value`)} WHERE v.kind = 'release_group'`;
    case 'PreferredImageTypes':
      return sql`SELECT ${k} AS k, p.image_type AS v ${from('JOIN series_preferred_images p ON p.series_id = xs.id')}`;
    case 'AvailableImageTypes': {
      const tmdb = TMDB_IMAGES.map(
        ({ link, image }) =>
          sql`UNION ALL SELECT ${k} AS k, ti.image_type AS v ${from(`JOIN ${link} ON x.anime_id = xs.anime_id ${image}`)}`,
      );
      return sql`SELECT ${k} AS k, 'Poster' AS v ${from(SERIES_JOINS.anime)} WHERE ${raw(ANIDB_POSTER('a'))} ${sql.join(tmdb, raw(' '))}`;
    }
  }
  throw new FilterError(`'${id}' is not a string-set selector.`);
}

/**
 * The Names selector's (k, v) rows: the AniDB titles of the series' anime, its title override, and the name of its
 * group (with nested groups, also of the group's top-level group). `where` adds a condition on each kind's rows, given
 * their alias (`t`, `xs`, `g`); with `folds`, each row also carries the name's fold as `f` (db/name-folds.ts).
 */
export function names(c: Candidates, where?: (kind: NameKind, alias: string) => Sql, folds = false): Sql {
  const k = c.ownerKey();
  const from = (join: string) => sql`FROM series xs ${c.ownerJoin()} ${raw(join)}`;
  const groups = c.groupNamesJoin();
  const conditions = (kind: NameKind, alias: string, always: Sql[] = []) => {
    const all = where ? [...always, where(kind, alias)] : always;
    return all.length ? sql`WHERE ${sql.join(all, raw(' AND '))}` : raw('');
  };
  const fold = (column: string) => raw(folds ? `, ${column} AS f` : '');
  return sql`SELECT ${k} AS k, t.value AS v${fold('t.folded')} ${from('JOIN anidb_anime_titles t ON t.anime_id = xs.anime_id')} ${conditions('titles', 't')}
          UNION ALL SELECT ${k} AS k, xs.title_override AS v${fold('xs.title_override_folded')} ${from('')} ${conditions('overrides', 'xs', [raw('xs.title_override IS NOT NULL')])}
          UNION ALL SELECT ${k} AS k, g.name AS v${fold('g.name_folded')} ${from(groups)} ${conditions('groups', 'g')}`;
}

/** The candidates' names as (k, v) rows; with `folds`, each with its fold as `f` (db/name-folds.ts). */
export function candidateNames(c: Candidates, folds = false): Sql {
  const series = c.scope.level === 'series';
  const from = series ? 'series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id' : 'groups it';
  const fold = !folds
    ? ''
    : series
      ? ', CASE WHEN it.title_override IS NOT NULL THEN it.title_override_folded ELSE ia.main_title_folded END AS f'
      : ', it.name_folded AS f';
  return sql`SELECT it.id AS k, ${nameOf(c)} AS v${raw(fold)} FROM ${raw(from)}`;
}
