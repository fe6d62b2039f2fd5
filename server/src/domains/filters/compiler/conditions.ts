import type { FilterCondition } from '@shoko-ts/contract';
import { CREATOR_ROLES, EXPRESSION_BY_ID, SEASONS, stripExpressionId } from '../filter-catalogue.js';
import { SERIES_JOINS, type Candidates } from './candidates.js';
import { comparison } from './comparisons.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { hasCollectingGap } from './number-selectors.js';
import { child, idParam, kindOf, numberParam, param } from './parameters.js';
import { nameOf, showsImage, stringSetById } from './string-selectors.js';
import { textMatch } from './text-matches.js';

/**
 * The stored type values by the catalogue's option names: the metadata pipeline stores the v3 names (`TV`,
 * `TVSpecial`, …), older or hand-seeded rows AniDB's texts (`TV Series`, `TV Special`, …); both match.
 */
const ANIDB_TYPES: Record<string, string[]> = {
  movie: ['Movie'],
  ova: ['OVA'],
  tvseries: ['TV', 'TV Series'],
  tv: ['TV', 'TV Series'],
  tvspecial: ['TVSpecial', 'TV Special'],
  web: ['Web'],
  other: ['Other'],
  musicvideo: ['MusicVideo', 'Music Video'],
  unknown: ['Unknown', 'unknown'],
};

// `IN` over the link tables rather than `EXISTS` per series: PostgreSQL cannot turn `EXISTS … OR EXISTS …` into a
// join and probed both per series (96 ms over the 20,000 series at 400k files, where the `IN` lists take 2 ms).
const tmdbLinked = (series: string) =>
  raw(
    `(${series}.anime_id IN (SELECT ts.anime_id FROM xref_anidb_tmdb_show ts UNION ALL SELECT tm.anime_id FROM xref_anidb_tmdb_movie tm))`,
  );
/** The series' anime has a TMDB show or movie that Trakt knows (integrations/trakt.sync.ts links them). */
const traktLinked = (series: string) =>
  raw(`(${series}.anime_id IN (SELECT tl.anime_id FROM trakt_links tl WHERE tl.trakt_id IS NOT NULL))`);

/** The catalogue's appearance types by the AniDB texts stored for a character's role in an anime. */
const APPEARANCES: Record<string, string[]> = {
  Main_Character: ['main character in'],
  Minor_Character: ['secondary cast in'],
  Background_Character: ['appears in'],
  Cameo: ['cameo appearance in'],
  Unknown: ['', 'unknown'],
};

/**
 * CreatorRoleType of a stored AniDB staff role text, in SQL; the same mapping as creatorRole() of the series domain
 * (voice actors are the rows with a character and count as Actor).
 */
const CREATOR_ROLE_SQL = `CASE WHEN ast.character_id IS NOT NULL THEN 'Actor'
  WHEN lower(ast.role) IN ('animation work', 'work') THEN 'Studio'
  WHEN lower(ast.role) IN ('direction', 'director', 'chief direction') THEN 'Director'
  WHEN lower(ast.role) = 'series composition' THEN 'SeriesComposer'
  WHEN lower(ast.role) = 'character design' THEN 'CharacterDesign'
  WHEN lower(ast.role) = 'music' THEN 'Music'
  WHEN lower(ast.role) IN ('original work', 'story', 'original story') THEN 'SourceWork'
  WHEN lower(ast.role) LIKE '%producer%' THEN 'Producer'
  ELSE 'Staff' END`;

const SEASON_STARTS = ['01-01', '04-01', '07-01', '10-01'];
const SEASON_ENDS = ['03-31', '06-30', '09-30', '12-31'];

/** Some of the candidate's series has a value `value` of `kind` (source, audio, subtitle, resolution). */
function hasValue(c: Candidates, kind: string, value: string): Sql {
  return c.anySeries(sql`v.kind = ${kind} AND v.value = ${value.toLowerCase()}`, SERIES_JOINS.values);
}

/** The series `uid` has voted on (of `type`, when given); never NULL (the table's key). */
function votedSeries(uid: number, type?: 'Permanent'): Sql {
  return sql`SELECT v.series_id FROM user_series_votes v WHERE v.user_id = ${uid}${type ? sql` AND v.vote_type = ${type}` : sql``}`;
}

function airedBetween(c: Candidates, start: string, end: string): Sql {
  return c.ownOrAnySeries(
    (_, a) =>
      sql`${raw(a)}.air_date IS NOT NULL AND ${raw(a)}.air_date <= ${end} AND COALESCE(${raw(a)}.end_date, ${raw(a)}.air_date) >= ${start}`,
    true,
  );
}

/** A boolean expression node as one SQL boolean over the candidate row `it`. */
export function condition(c: Candidates, node: FilterCondition): Sql {
  const id = stripExpressionId(node.Type);
  if (!EXPRESSION_BY_ID.has(id)) throw new FilterError(`Unknown expression type '${node.Type}'.`);
  if (kindOf(node) !== 'Expression') throw new FilterError(`'${node.Type}' is a selector, not a condition.`);
  const uid = c.scope.userId;
  const today = c.scope.today;
  switch (id) {
    case 'And':
      return sql`(${condition(c, child(node, 'Left'))} AND ${condition(c, child(node, 'Right'))})`;
    case 'Or':
      return sql`(${condition(c, child(node, 'Left'))} OR ${condition(c, child(node, 'Right'))})`;
    case 'Not':
      return sql`(NOT ${condition(c, child(node, 'Left'))})`;
    case 'Xor':
    case 'Equals': {
      const left = sql`(CASE WHEN ${condition(c, child(node, 'Left'))} THEN 1 ELSE 0 END)`;
      const right = sql`(CASE WHEN ${condition(c, child(node, 'Right'))} THEN 1 ELSE 0 END)`;
      return id === 'Xor' ? sql`(${left} <> ${right})` : sql`(${left} = ${right})`;
    }
    case 'Constant':
    case 'IsFavorite':
      // Favourites are groups a user marked (kept from a Shoko import); a series is never one, as in Shoko.
      return c.scope.level === 'group'
        ? sql`it.id IN (SELECT fav.group_id FROM user_group_favourites fav WHERE fav.user_id = ${uid})`
        : sql`(1 = 0)`;
    case 'SetOverlaps':
    case 'StringIn':
    case 'HasTmdbAutoLinkingDisabled':
    case 'HasTraktAutoLinkingDisabled':
    case 'HasTvDBLink':
    // TvDB links are not kept at all, so no item has one and none is expected to have one: the "missing" check never
    // matches either (rather than matching the whole collection, which would be noise). Trakt auto-linking is one
    // server-wide setting, never off for one series.
    // falls through
    case 'MissingTvDBLink':
      return raw('(1 = 0)');
    case 'HasAvailableImage': {
      const type = param(node).toLowerCase();
      if (c.scope.level === 'series') return showsImage('it', 'ia', type);
      return c.anySeries(showsImage('xs', 'a', type), `LEFT ${SERIES_JOINS.anime}`);
    }
    case 'HasPreferredImage':
    case 'HasReleaseGroupName': {
      const set = stringSetById(c, id === 'HasPreferredImage' ? 'PreferredImageTypes' : 'ReleaseGroupNames');
      return sql`it.id IN (SELECT q.k FROM (${set}) q WHERE lower(q.v) = ${param(node).toLowerCase()})`;
    }
    case 'HasResolution':
      return hasValue(c, 'resolution', param(node));
    case 'HasCreatorWithRole': {
      const role = param(node, true);
      if (!CREATOR_ROLES.includes(role)) throw new FilterError(`HasCreatorWithRole: '${role}' is not one of ${CREATOR_ROLES.join(', ')}.`);
      return c.anySeries(
        sql`ast.creator_id = ${idParam(node)} AND ${raw(CREATOR_ROLE_SQL)} = ${role}`,
        'JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id',
      );
    }
    case 'HasMissingEpisodesCollecting':
      return hasCollectingGap(c);
    case 'StringRegexMatches':
    case 'AnyRegexMatches':
    case 'AllRegexMatches':
    case 'StringFuzzyMatches':
    case 'AnyFuzzyMatches':
      return textMatch(c, node);
    case 'HasCharacterWithAppearance': {
      const appearance = APPEARANCES[param(node, true)];
      if (!appearance)
        throw new FilterError(
          `HasCharacterWithAppearance: '${node.SecondParameter}' is not one of ${Object.keys(APPEARANCES).join(', ')}.`,
        );
      return c.anySeries(
        sql`ac.character_id = ${idParam(node)} AND ac.appearance IN (${sql.join(appearance)})`,
        'JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id',
      );
    }
    case 'HasTag':
      return c.anySeries(
        sql`lower(t.name) = ${param(node).toLowerCase()}`,
        'JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id JOIN anidb_tags t ON t.id = at.tag_id',
      );
    case 'HasTagByID':
      return c.anySeries(sql`at.tag_id = ${idParam(node)}`, 'JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id');
    case 'HasCustomTag':
      return c.anySeries(
        sql`lower(ct.name) = ${param(node).toLowerCase()}`,
        'JOIN series_custom_tags sct ON sct.series_id = xs.id JOIN custom_tags ct ON ct.id = sct.tag_id',
      );
    case 'HasCustomTagByID':
      return c.anySeries(sql`sct.tag_id = ${idParam(node)}`, 'JOIN series_custom_tags sct ON sct.series_id = xs.id');
    case 'HasCharacter':
      return c.anySeries(sql`ac.character_id = ${idParam(node)}`, 'JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id');
    case 'HasCreator':
      return c.anySeries(sql`ast.creator_id = ${idParam(node)}`, 'JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id');
    case 'HasAnimeType': {
      const types = ANIDB_TYPES[param(node).toLowerCase()] ?? ANIDB_TYPES.unknown;
      return c.ownOrAnySeries((_, a) => sql`${raw(a)}.type IN (${sql.join(types)})`, true);
    }
    case 'InYear': {
      const year = Math.trunc(numberParam(node));
      return airedBetween(c, `${year}-01-01`, `${year}-12-31`);
    }
    case 'InSeason': {
      const year = Math.trunc(numberParam(node));
      const season = param(node, true);
      const index = (SEASONS as readonly string[]).indexOf(season);
      if (index < 0) throw new FilterError(`InSeason: '${season}' is not one of ${SEASONS.join(', ')}.`);
      return airedBetween(c, `${year}-${SEASON_STARTS[index]}`, `${year}-${SEASON_ENDS[index]}`);
    }
    case 'IsFinished':
      return c.ownOrAnySeries((_, a) => sql`${raw(a)}.end_date IS NOT NULL AND ${raw(a)}.end_date < ${today}`, true);
    case 'HasTmdbLink':
      return c.ownOrAnySeries(tmdbLinked);
    case 'HasTraktLink':
      return c.ownOrAnySeries(traktLinked);
    // Trakt links come from TMDB links: a series with one should have the other.
    case 'MissingTraktLink':
      return c.ownOrAnySeries((xs) => sql`${tmdbLinked(xs)} AND NOT ${traktLinked(xs)}`);
    case 'MissingTmdbLink':
      return c.ownOrAnySeries((xs, a) => sql`${raw(a)}.type NOT IN ('Music Video', 'Other', 'unknown') AND NOT ${tmdbLinked(xs)}`, true);
    case 'HasVideoFiles':
      // A group's file count is its series' summed.
      return c.maintainedCondition('group', ['gf'], raw('gf.file_count > 0')) ?? c.anyAggregates((sa) => raw(`${sa}.file_count > 0`));
    case 'HasMissingEpisodes':
      // The first missing episode has aired by today.
      return c.anyAggregates((sa) => sql`${raw(sa)}.missing_first_air <= ${today}`);
    // A series' watched episodes with a file are some of its episodes with a file: a group has more of those than
    // watched exactly when one of its series does, and watched episodes exactly when one of them has.
    case 'HasUnwatchedEpisodes': {
      const unwatched = (sa: string, ua: string) => raw(`${sa}.local_episode_count > COALESCE(${ua}.watched_local_count, 0)`);
      return (
        c.maintainedCondition('series', ['so', 'suo'], unwatched('so', 'suo')) ??
        c.maintainedCondition('group', ['gf', 'guf'], unwatched('gf', 'guf')) ??
        c.anySeries(unwatched('sa', 'ua'), `${SERIES_JOINS.aggregates} ${c.userAggJoin('LEFT JOIN')}`)
      );
    }
    case 'HasWatchedEpisodes': {
      const watched = (ua: string) => raw(`${ua}.watched_count > 0`);
      return (
        c.maintainedCondition('series', ['suo'], watched('suo')) ??
        c.maintainedCondition('group', ['guf'], watched('guf')) ??
        c.anySeries(watched('ua'), c.userAggJoin('JOIN'))
      );
    }
    case 'HasName':
      return sql`(lower(${nameOf(c)}) = ${param(node).toLowerCase()})`;
    // The viewer's voted series as one uncorrelated set: with no votes at all (the usual case) PostgreSQL planned the
    // correlated form as a scan of the empty table per series, 40 of the 80 ms of a series page at 400k files.
    case 'HasUserVotes':
      return c.anySeries(sql`xs.id IN (${votedSeries(uid)})`);
    case 'HasPermanentUserVotes':
      return c.anySeries(sql`xs.id IN (${votedSeries(uid, 'Permanent')})`);
    case 'MissingPermanentUserVotes':
    case 'MissingPermanentVote':
      return c.ownOrAnySeries(
        (xs, a) =>
          sql`${raw(a)}.end_date IS NOT NULL AND ${raw(a)}.end_date < ${today} AND ${raw(xs)}.id NOT IN (${votedSeries(uid, 'Permanent')})`,
        true,
      );
    case 'MissingVote':
      return c.anySeries(sql`xs.id NOT IN (${votedSeries(uid)})`);
    // "Shared": some series has AniDB-known files, and no series has such a file without the value.
    case 'HasAudioLanguage':
    case 'HasSubtitleLanguage':
    case 'HasSharedAudioLanguage':
    case 'HasSharedSubtitleLanguage': {
      const kind = id.includes('Audio') ? 'audio' : 'subtitle';
      const value = param(node).toLowerCase();
      if (!id.includes('Shared')) return hasValue(c, kind, value);
      const inEveryFile = sql`EXISTS (SELECT 1 FROM series_aggregate_values v WHERE v.series_id = xs.id AND v.kind = ${kind} AND v.value = ${value} AND v.file_count = sa.anidb_file_count)`;
      return sql`(${c.anyAggregates((sa) => raw(`${sa}.anidb_file_count > 0`))} AND NOT ${c.anySeries(sql`sa.anidb_file_count > 0 AND NOT ${inEveryFile}`, SERIES_JOINS.aggregates)})`;
    }
    case 'HasVideoSource':
      return hasValue(c, 'source', param(node));
    case 'HasSharedVideoSource': {
      // Files without a source do not count against it.
      const other = c.anySeries(sql`v.kind = 'source' AND v.value <> ${param(node).toLowerCase()}`, SERIES_JOINS.values);
      return sql`(${c.anyAggregates((sa) => raw(`${sa}.anidb_file_count > 0`))} AND NOT ${other})`;
    }
  }
  const compared = comparison(c, id, node);
  if (compared) return compared;
  throw new FilterError(`'${node.Type}' cannot be used as a condition.`);
}
