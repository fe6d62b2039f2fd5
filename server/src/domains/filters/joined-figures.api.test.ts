import type { FilterCondition } from '@shoko-ts/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { serverWithCollection } from '../../test/generated-collection.js';
import type { TestServer } from '../../test/harness.js';
import { EXPRESSIONS } from './filter-catalogue.js';
import { FilterCompiler, type FilterScope } from './compiler/index.js';

const SELECTORS = EXPRESSIONS.filter((e) => e.group === 'Selector' && (e.type === 'NumberSelector' || e.type === 'DateSelector')).map(
  (e) => ({ id: e.id, date: e.type === 'DateSelector' }),
);

/**
 * Per-candidate figures (every number and date selector of the catalogue) computed both ways FilterCompiler can: one
 * correlated sub-query per candidate, and one grouped pass joined to the candidates (joinFigures, PostgreSQL's whole-
 * collection pages). Both must give every candidate the same value — groups flat and nested, an empty group, series —
 * on a generated collection with watch state, votes of both kinds, TMDB show and episode links of both ratings.
 */
describe('joined per-candidate figures', () => {
  let server: TestServer;

  beforeAll(async () => {
    ({ server } = await serverWithCollection({ series: 24, files: 90, seed: 11 }));
    const db = server.services.db.kysely;
    const series = await db.selectFrom('series').select(['id', 'anime_id', 'group_id']).orderBy('id').execute();
    const now = new Date(0).toISOString();
    const votes = series
      .filter((_, i) => i % 3 !== 2)
      .map(
        (s, i) =>
          ({ user_id: 1, series_id: s.id, value: 2 + (i % 8), vote_type: i % 2 ? 'Temporary' : 'Permanent', updated_at: now }) as const,
      );
    await db.insertInto('user_series_votes').values(votes).execute();
    const linked = series.filter((_, i) => i % 2 === 0);
    await db
      .insertInto('xref_anidb_tmdb_show')
      .values(linked.map((s) => ({ anime_id: s.anime_id, show_id: 500 + s.anime_id, source: 'Automatic' }) as const))
      .execute();
    const episodes = await db
      .selectFrom('episodes')
      .innerJoin('series', 'series.id', 'episodes.series_id')
      .select(['episodes.anidb_episode_id', 'series.anime_id'])
      .where(
        'series.anime_id',
        'in',
        linked.map((s) => s.anime_id),
      )
      .orderBy('episodes.anidb_episode_id')
      .execute();
    const xrefs = episodes
      .filter((_, i) => i % 3 !== 0)
      .map((e, i) => ({
        anime_id: e.anime_id,
        anidb_episode_id: e.anidb_episode_id,
        show_id: 500 + e.anime_id,
        tmdb_episode_id: i % 5 === 0 ? 0 : 9000 + i,
        ordering: 0,
        rating: i % 2 ? 'UserVerified' : 'Good',
      }));
    if (xrefs.length) await db.insertInto('xref_anidb_tmdb_episode').values(xrefs).execute();
    await db
      .insertInto('groups')
      .values({ name: 'Empty group', description: '', has_custom_name: 0, has_custom_description: 0, created_at: now, updated_at: now })
      .execute();
    await refreshSeriesAggregates(db, server.services.db.dialect);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Every candidate's value of `selector`, by id; numbers rounded so the two databases' float texts compare. */
  const values = async (scope: Omit<FilterScope, 'dialect' | 'today' | 'userId'>, selector: { id: string; date: boolean }) => {
    const compiler = new FilterCompiler({ ...scope, userId: 1, today: '2026-11-27', dialect: server.services.db.dialect });
    const value = selector.date ? compiler.dateSelector(selector.id) : compiler.numberSelector(selector.id);
    const from = scope.level === 'series' ? sql`FROM series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id` : sql`FROM groups it`;
    const tree = server.services.collection.browse.treeCte(scope.nested);
    const { rows } = await sql<{
      id: number;
      v: string | number | null;
    }>`${tree}SELECT it.id AS id, ${value} AS v ${from} ${compiler.joins()} ORDER BY it.id`.execute(server.services.db.kysely);
    return rows.map((r) => [r.id, r.v === null || selector.date ? r.v : Math.round(Number(r.v) * 1e6) / 1e6] as const);
  };

  /** The candidates meeting `condition`, by id. */
  const matching = async (scope: Omit<FilterScope, 'dialect' | 'today' | 'userId'>, condition: FilterCondition) => {
    const compiler = new FilterCompiler({ ...scope, userId: 1, today: '2026-11-27', dialect: server.services.db.dialect });
    const where = compiler.bool(condition);
    const from = scope.level === 'series' ? sql`FROM series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id` : sql`FROM groups it`;
    const tree = server.services.collection.browse.treeCte(scope.nested);
    const { rows } = await sql<{ id: number }>`${tree}SELECT it.id AS id ${from} ${compiler.joins()} WHERE ${where} ORDER BY it.id`.execute(
      server.services.db.kysely,
    );
    return rows.map((r) => r.id);
  };

  /** Conditions that read maintained rows (maintainedCondition) give the candidates their sub-queries give. */
  const compareConditions = async (scope: Omit<FilterScope, 'dialect' | 'today' | 'userId' | 'joinFigures'>) => {
    for (const type of ['HasVideoFiles', 'HasMissingEpisodes', 'HasUnwatchedEpisodes', 'HasWatchedEpisodes', 'HasSharedVideoSource']) {
      for (const condition of [
        { Type: type, Parameter: 'web' },
        { Type: 'Not', Left: { Type: type, Parameter: 'web' } },
      ]) {
        const computed = await matching({ ...scope, joinFigures: true }, condition);
        const maintained = await matching({ ...scope, joinFigures: true, maintainedFigures: true }, condition);
        expect({ condition, ids: maintained }).toEqual({ condition, ids: computed });
      }
    }
  };

  /** What every filter run does first: recompute what the changes marked (series aggregates, group figures). */
  const refresh = () => refreshSeriesAggregates(server.services.db.kysely, server.services.db.dialect);

  const compareAll = async (scope: Omit<FilterScope, 'dialect' | 'today' | 'userId' | 'joinFigures'>) => {
    const differing: string[] = [];
    const varied: string[] = [];
    for (const selector of SELECTORS) {
      const correlated = await values({ ...scope, joinFigures: false }, selector);
      const joined = await values({ ...scope, joinFigures: true }, selector);
      expect(joined.length).toBe(correlated.length);
      if (JSON.stringify(joined) !== JSON.stringify(correlated)) differing.push(selector.id);
      // Group figures the database maintains (migration 0051), as the filters read them.
      const maintained = await values({ ...scope, joinFigures: true, maintainedFigures: true }, selector);
      if (JSON.stringify(maintained) !== JSON.stringify(correlated)) differing.push(`${selector.id} (maintained)`);
      if (new Set(correlated.map(([, v]) => v)).size > 1) varied.push(selector.id);
    }
    expect(differing).toEqual([]);
    return varied;
  };

  it('gives every group and every series the same figures joined as per candidate', async () => {
    const groups = await compareAll({ level: 'group', nested: false });
    const series = await compareAll({ level: 'series', nested: false });
    // The collection exercises the figures: they differ between candidates, but for the collecting gaps (no release
    // group has such episodes) and, for series, the day they were all added (the empty group has none) and their own
    // count.
    const same = (varied: string[]) => SELECTORS.map((s) => s.id).filter((id) => !varied.includes(id));
    expect(same(groups)).toEqual(['MissingEpisodeCollectingCount']);
    expect(same(series)).toEqual(['AddedDate', 'MissingEpisodeCollectingCount', 'SeriesCount']);
  });

  it('gives nested groups the figures of every series below them', async () => {
    const db = server.services.db.kysely;
    const groups = await db.selectFrom('groups').select('id').where('name', '<>', 'Empty group').orderBy('id').execute();
    // Three levels: the second group under the first, the third under the second; the fourth under the first.
    await db.updateTable('groups').set({ parent_id: groups[0]!.id }).where('id', 'in', [groups[1]!.id, groups[3]!.id]).execute();
    await db.updateTable('groups').set({ parent_id: groups[1]!.id }).where('id', '=', groups[2]!.id).execute();
    await refresh();
    const varied = await compareAll({ level: 'group', nested: true });
    expect(varied).toContain('SeriesCount');
    const counts = new Map(await values({ level: 'group', nested: true, joinFigures: true }, { id: 'SeriesCount', date: false }));
    const own = await db.selectFrom('series').select('group_id').execute();
    const ownCount = (id: number) => own.filter((s) => s.group_id === id).length;
    expect(counts.get(groups[0]!.id)).toBe(
      ownCount(groups[0]!.id) + ownCount(groups[1]!.id) + ownCount(groups[2]!.id) + ownCount(groups[3]!.id),
    );
  });

  it('keeps the maintained group figures right as series, groups, anime and watch state change', async () => {
    const db = server.services.db.kysely;
    const scope = { level: 'group', nested: true } as const;
    const series = await db.selectFrom('series').select(['id', 'group_id', 'anime_id']).orderBy('id').execute();
    const groups = await db.selectFrom('groups').select(['id', 'parent_id']).where('name', '<>', 'Empty group').orderBy('id').execute();
    // Top-level groups without subgroups (the nesting test above put groups 1 and 3 under 0, and 2 under 1).
    const [from, to, rated, watched, gone] = groups.slice(4);
    const seriesOf = (group: { id: number }) => series.find((s) => s.group_id === group.id)!;
    /** Each change alone, then what a filter run does first, then every figure of every group compared. */
    const afterRefresh = async () => {
      await refresh();
      await compareAll(scope);
      await compareAll({ level: 'series', nested: true });
      await compareConditions(scope);
      await compareConditions({ level: 'series', nested: true });
    };

    // A series moved to another group: both groups' figures change.
    await db.updateTable('series').set({ group_id: to!.id }).where('id', '=', seriesOf(from!).id).execute();
    await afterRefresh();
    // An anime's rating, air date and episode counts, as an AniDB update writes them (a new end date marks its series
    // already: migration 0045).
    await db
      .updateTable('anidb_anime')
      .set({ rating: 977, air_date: '1961-04-12', episode_count: 70, special_count: 7 })
      .where('id', '=', seriesOf(rated!).anime_id)
      .execute();
    await afterRefresh();
    const highest = await values({ ...scope, joinFigures: true, maintainedFigures: true }, { id: 'HighestAniDBRating', date: false });
    expect(highest).toContainEqual([rated!.id, 9.77]);
    // Watch state on two days (the series aggregates' triggers mark the series; its groups follow).
    const episodes = await db
      .selectFrom('episodes')
      .select('id')
      .where('series_id', '=', seriesOf(watched!).id)
      .orderBy('id')
      .limit(2)
      .execute();
    const ids = episodes.map((e) => e.id);
    await db.deleteFrom('user_episode_states').where('episode_id', 'in', ids).where('user_id', '=', 1).execute();
    await db
      .insertInto('user_episode_states')
      .values(
        ['1999-12-31T23:00:00.000Z', '2000-02-01T10:00:00.000Z'].map((day, i) => ({
          user_id: 1,
          episode_id: ids[i]!,
          watched_at: day,
          watch_count: 1,
          updated_at: day,
        })),
      )
      .execute();
    await afterRefresh();
    // A state that is not watched (a rating) in a group where the viewer has no other state: the series and the group
    // get watch figures of zero.
    const now = await db.selectFrom('series').select(['id', 'group_id']).execute();
    const stateful = new Set(
      (
        await db
          .selectFrom('user_episode_states')
          .innerJoin('episodes', 'episodes.id', 'user_episode_states.episode_id')
          .select('episodes.series_id')
          .where('user_episode_states.user_id', '=', 1)
          .execute()
      ).map((r) => r.series_id),
    );
    const stateless = now.find(
      (s) =>
        s.group_id !== groups[0]!.id && s.group_id !== groups[1]!.id && now.every((o) => o.group_id !== s.group_id || !stateful.has(o.id)),
    )!;
    const untouched = await db.selectFrom('episodes').select('id').where('series_id', '=', stateless.id).executeTakeFirstOrThrow();
    await db
      .insertInto('user_episode_states')
      .values({ user_id: 1, episode_id: untouched.id, watched_at: null, watch_count: 0, rating: 7, updated_at: '2001-01-01T00:00:00.000Z' })
      .execute();
    await afterRefresh();
    // A subgroup taken out of its parent (groups 0 and 1 lose group 2's series).
    await db.updateTable('groups').set({ parent_id: null }).where('id', '=', groups[2]!.id).execute();
    await afterRefresh();
    // A group emptied and deleted keeps no figures.
    await db.updateTable('series').set({ group_id: groups[0]!.id }).where('group_id', '=', gone!.id).execute();
    await db.deleteFrom('groups').where('id', '=', gone!.id).execute();
    await afterRefresh();
    expect(await db.selectFrom('group_figures').select('group_id').where('group_id', '=', gone!.id).execute()).toEqual([]);
    expect(await db.selectFrom('aggregate_dirty_groups').selectAll().execute()).toEqual([]);
  });
});
