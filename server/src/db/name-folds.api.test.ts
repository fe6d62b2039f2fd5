import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FilterCondition, Group, ListResult, Series } from '@shoko-ts/contract';
import { runTextMatches } from '../shared/text-match.js';
import { serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';
import { foldText } from './name-folds.js';
import { insertGroup } from './shared-queries.js';

// Lets one test read names whose folds are missing, as a filter does when a name changes between the refresh and the read.
const refresh = vi.hoisted(() => ({ skip: false }));
vi.mock('./name-folds.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./name-folds.js')>();
  return { ...actual, refreshNameFolds: (db: never) => (refresh.skip ? Promise.resolve(0) : actual.refreshNameFolds(db)) };
});
const { refreshNameFolds } = await import('./name-folds.js');

/**
 * The folded names (migration 0050, db/name-folds.ts) and the filters that read them. After each kind of change — title
 * overrides set and cleared through the API, groups renamed through the API, AniDB titles changed and new groups
 * stored in the tables, with names outside ASCII (accents, full-width letters, the Kelvin sign, dotted İ, characters
 * beyond U+FFFF) — every stored fold is compared with foldText of its name, and the fuzzy filters over Name and Names
 * and the regex filters over Names, at series and group level, with the same test run in code over every name (the
 * worker's own folding, as before the folds were kept); also while some folds are missing.
 */
describe('maintained name folds', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 12, files: 60, seed: 11, placeFiles: true }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<T> => {
    const res = await server.request({ method, url, key: admin, body });
    expect(res.statusCode, res.body).toBe(200);
    return (res.body ? res.json() : undefined) as T;
  };

  async function storedFolds() {
    const { rows: titles } = await sql<{
      name: string;
      fold: string | null;
    }>`SELECT value AS name, folded AS fold FROM anidb_anime_titles ORDER BY id`.execute(db());
    const { rows: overrides } = await sql<{ name: string | null; fold: string | null }>`
      SELECT title_override AS name, title_override_folded AS fold FROM series ORDER BY id`.execute(db());
    const { rows: groups } = await sql<{
      name: string;
      fold: string | null;
    }>`SELECT name, name_folded AS fold FROM groups ORDER BY id`.execute(db());
    return [...titles, ...overrides, ...groups];
  }

  async function expectFreshFolds() {
    await refreshNameFolds(db());
    const rows = await storedFolds();
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.map((r) => r.fold)).toEqual(rows.map((r) => (r.name === null ? null : foldText(r.name))));
  }

  /** Every series' and group's names from the base tables, as the Names selector defines them (a flat collection). */
  async function namesByCandidate() {
    const series = await db()
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.group_id', 's.title_override', 'a.main_title'])
      .execute();
    const titles = await db().selectFrom('anidb_anime_titles').select(['anime_id', 'value']).execute();
    const groups = new Map((await db().selectFrom('groups').select(['id', 'name']).execute()).map((g) => [g.id, g.name]));
    const bySeries = new Map<number, string[]>();
    const byGroup = new Map<number, string[]>();
    // The Name selector: a series' title override, else its anime's main title; a group's name.
    const nameOfSeries = new Map(series.map((s) => [s.id, [s.title_override ?? s.main_title ?? '']]));
    const nameOfGroup = new Map([...groups].map(([id, name]) => [id, [name]]));
    for (const s of series) {
      const names = [...titles.filter((t) => t.anime_id === s.anime_id).map((t) => t.value), groups.get(s.group_id)!];
      if (s.title_override !== null) names.push(s.title_override);
      bySeries.set(s.id, names);
      byGroup.set(s.group_id, [...(byGroup.get(s.group_id) ?? []), ...names]);
    }
    return { bySeries, byGroup, nameOfSeries, nameOfGroup };
  }

  /**
   * The candidates whose names pass `test` (any name, or every name), among those the unfiltered page lists; a group
   * without series has no names, so every one of them passes.
   */
  async function expected(byId: Map<number, string[]>, listed: number[], all: boolean, test: (values: string[]) => Promise<Uint8Array>) {
    const names = (id: number) => byId.get(id) ?? [];
    const flags = await test(listed.flatMap(names));
    let at = 0;
    return listed
      .filter((id) => {
        const own = [...flags.subarray(at, (at += names(id).length))];
        return all ? own.every(Boolean) : own.some(Boolean);
      })
      .sort((a, b) => a - b);
  }

  const seriesIds = async (expression?: FilterCondition) =>
    (
      await call<ListResult<Series>>('POST', '/api/v3/Filter/Preview/Series?pageSize=0', {
        ApplyAtSeriesLevel: true,
        Expression: expression,
      })
    ).List.map((s) => s.IDs.ID);
  const groupIds = async (expression?: FilterCondition) =>
    (await call<ListResult<Group>>('POST', '/api/v3/Filter/Preview/Group?pageSize=0', { Expression: expression })).List.map(
      (g) => g.IDs.ID,
    );

  const fuzzyNeedles = [
    'ka',
    'KA',
    'kaze',
    'Émile',
    'emile',
    'ｚｅｂｒａ',
    'Cronicle',
    'chronicle of',
    'Pokemon',
    'istanbul',
    '\u{20000}\u{20001}',
    'x',
  ];
  const regexes = ['^ka', '^KA', '^ka[a-z]', 'ka', '^ze', '^\u212Aa', '^qa', 'qa\\s', 'qa\\s+t'];
  const containsNeedles = ['ka', 'KA', 'a', 'e', 'kaze', 'group', 'chronicle', '%', 'x'];

  async function expectFiltersAgree() {
    const { bySeries, byGroup, nameOfSeries, nameOfGroup } = await namesByCandidate();
    const listedSeries = await seriesIds();
    const listedGroups = await groupIds();
    expect(listedSeries.length).toBeGreaterThan(5);
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    let matched = 0;
    for (const needle of fuzzyNeedles) {
      const fuzzy = async (values: string[]) =>
        (await runTextMatches([{ kind: 'fuzzy', pattern: needle, ignoreCase: true, values, needles: null }]))[0]!;
      const expression: FilterCondition = { Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Parameter: needle };
      const series = await expected(bySeries, listedSeries, false, fuzzy);
      expect(sorted(await seriesIds(expression)), `series ${needle}`).toEqual(series);
      expect(sorted(await groupIds(expression)), `groups ${needle}`).toEqual(await expected(byGroup, listedGroups, false, fuzzy));
      matched += series.length;
      const name: FilterCondition = { Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Parameter: needle };
      expect(sorted(await seriesIds(name)), `series name ${needle}`).toEqual(await expected(nameOfSeries, listedSeries, false, fuzzy));
      expect(sorted(await groupIds(name)), `groups name ${needle}`).toEqual(await expected(nameOfGroup, listedGroups, false, fuzzy));
    }
    /** The Names condition `type` (Any… or All…) with `parameter` keeps the series and groups whose names pass `test`. */
    const expectNamesAgree = async (type: string, parameter: string, test: (values: string[]) => Promise<Uint8Array>) => {
      const expression: FilterCondition = { Type: type, Left: { Type: 'Names' }, Parameter: parameter };
      const all = type.startsWith('All');
      const series = await expected(bySeries, listedSeries, all, test);
      expect(sorted(await seriesIds(expression)), `series ${type} ${parameter}`).toEqual(series);
      expect(sorted(await groupIds(expression)), `groups ${type} ${parameter}`).toEqual(await expected(byGroup, listedGroups, all, test));
      matched += series.length;
    };
    for (const pattern of regexes) {
      const regex = new RegExp(pattern, 'i');
      const test = async (values: string[]) => Uint8Array.from(values.map((v) => (regex.test(v.slice(0, 1000)) ? 1 : 0)));
      for (const type of ['AnyRegexMatches', 'AllRegexMatches']) await expectNamesAgree(type, pattern, test);
    }
    // AnyContains and AllContains (looked up per kind of name) with the database's own comparison of each name: how
    // lower() and LIKE treat letters outside ASCII differs between the databases.
    for (const needle of containsNeedles) {
      const pattern = `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const test = async (values: string[]) => {
        const flags = new Uint8Array(values.length);
        for (const [i, value] of values.entries())
          flags[i] = (
            await sql<{ m: number }>`SELECT CASE WHEN lower(${value}) LIKE ${pattern} ESCAPE '\\' THEN 1 ELSE 0 END AS m`.execute(db())
          ).rows[0]!.m;
        return flags;
      };
      for (const type of ['AnyContains', 'AllContains']) await expectNamesAgree(type, needle, test);
    }
    return matched;
  }

  it('holds after the generated collection is stored, and the filters agree with folding every name in code', async () => {
    await expectFreshFolds();
    expect(await expectFiltersAgree()).toBeGreaterThan(0);
  });

  it('follows title overrides, group names and AniDB titles changed, with names outside ASCII', async () => {
    const series = await db().selectFrom('series').select(['id', 'anime_id', 'group_id']).orderBy('id').execute();
    const overrides = [
      'Kaze KAZE',
      'Émile à Paris',
      'ｚｅｂｒａ Chronicle',
      '\u212Aaze (Kelvin)',
      'İstanbul Story',
      '\u{20000}\u{20001} Tale',
    ];
    for (const [i, title] of overrides.entries()) {
      await call('POST', `/api/v3/Series/${series[i]!.id}/OverrideTitle`, { Title: title });
      const { fold } = await db()
        .selectFrom('series')
        .select('title_override_folded as fold')
        .where('id', '=', series[i]!.id)
        .executeTakeFirstOrThrow();
      expect(fold, 'cleared by the change').toBeNull();
    }
    await call('POST', `/api/v3/Series/${series[0]!.id}/OverrideTitle`, { Title: '' });
    const groups = await db().selectFrom('groups').select('id').orderBy('id').execute();
    for (const [i, name] of ['Pokémon Kai', 'KA Group', 'chronicles of ka'].entries())
      await call('PATCH', `/api/v3/Group/${groups[i]!.id}`, [{ op: 'replace', path: '/Name', value: name }]);
    expect(
      (await db().selectFrom('groups').select('name_folded').where('id', '=', groups[0]!.id).executeTakeFirstOrThrow()).name_folded,
    ).toBeNull();
    const title = await db().selectFrom('anidb_anime_titles').select(['id']).orderBy('id').executeTakeFirstOrThrow();
    await db().updateTable('anidb_anime_titles').set({ value: 'Ｋａｚｅ no Tani' }).where('id', '=', title.id).execute();
    expect(
      (await db().selectFrom('anidb_anime_titles').select('folded').where('id', '=', title.id).executeTakeFirstOrThrow()).folded,
    ).toBeNull();
    // Three series of their own groups whose every AniDB title holds "qa": one whose group's name lacks it, one whose
    // override lacks it, one with every name holding it (the only one AllContains "qa" keeps).
    const [groupLacks, overrideLacks, allHold] = series
      .slice(6)
      .filter((s, i, rest) => rest.findIndex((o) => o.group_id === s.group_id || o.anime_id === s.anime_id) === i)
      .filter((s) => series.filter((o) => o.group_id === s.group_id).length === 1);
    expect(allHold, 'three series alone in their groups').toBeDefined();
    for (const [i, s] of [groupLacks!, overrideLacks!, allHold!].entries()) {
      await db()
        .updateTable('anidb_anime_titles')
        .set({ value: `Qa title ${i}` })
        .where('anime_id', '=', s.anime_id)
        .execute();
      await call('PATCH', `/api/v3/Group/${s.group_id}`, [{ op: 'replace', path: '/Name', value: i === 0 ? 'Other' : `QA group ${i}` }]);
    }
    await call('POST', `/api/v3/Series/${overrideLacks!.id}/OverrideTitle`, { Title: '0123' });
    await insertGroup(db(), { parent_id: null, name: 'Kazé Empty Group', description: '' }, new Date().toISOString());
    // Changes made straight in the tables raise no event: drop cached answers as a job's end does.
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
    await expectFreshFolds();
    expect(await expectFiltersAgree()).toBeGreaterThan(0);
    const qa = (Type: string) => ({ Type, Left: { Type: 'Names' }, Parameter: 'qa' }) as FilterCondition;
    expect(await seriesIds(qa('AllContains'))).toEqual([allHold!.id]);
    // A group alone in keeping it, beside the group without series (no names at all).
    const kept = await groupIds(qa('AllContains'));
    expect(kept).toContain(allHold!.group_id);
    expect(kept).not.toContain(groupLacks!.group_id);
    expect(kept).not.toContain(overrideLacks!.group_id);
    expect((await seriesIds(qa('AnyContains'))).sort()).toEqual([groupLacks!.id, overrideLacks!.id, allHold!.id].sort());
    expect(await seriesIds({ Type: 'AllRegexMatches', Left: { Type: 'Names' }, Parameter: 'qa' })).toEqual([allHold!.id]);
    // A name only the override holds.
    expect(await seriesIds({ Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: '0123' })).toEqual([overrideLacks!.id]);
  });

  it('answers the same for names whose folds are missing', async () => {
    await db()
      .updateTable('anidb_anime_titles')
      .set({ folded: null })
      .where(sql<boolean>`id % 2 = 0`)
      .execute();
    await db().updateTable('groups').set({ name_folded: null }).execute();
    await db()
      .updateTable('anidb_anime')
      .set({ main_title_folded: null })
      .where(sql<boolean>`id % 2 = 1`)
      .execute();
    refresh.skip = true;
    try {
      const missing = (await storedFolds()).filter((r) => r.name !== null && r.fold === null);
      expect(missing.length).toBeGreaterThan(10);
      expect(await expectFiltersAgree()).toBeGreaterThan(0);
    } finally {
      refresh.skip = false;
    }
    await expectFreshFolds();
  });
});
