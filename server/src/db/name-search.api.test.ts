import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, ListResult } from '@shoko-ts/contract';
import type { BrowseStore } from '../domains/groups/index.js';
import { FilterCompiler, FiltersService, FiltersStore, type CompiledFilter } from '../domains/filters/index.js';
import { serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';
import type { DialectName } from './database.js';
import { NAME_SEARCH } from './name-search.js';
import type { Database } from './schema.js';
import { insertGroup } from './shared-queries.js';

/**
 * The filters' store with the console search's condition replaced by the scan the filter compiler produced before the
 * name-search index (migration 0044): every value of the Names selector lower-cased and compared.
 */
class ScanStore extends FiltersStore {
  text = '';
  equals = false;

  constructor(
    db: Kysely<Database>,
    browse: BrowseStore,
    private readonly dialect: DialectName,
  ) {
    super(db, browse);
  }

  private scan(filter: CompiledFilter): CompiledFilter {
    const compiler = new FilterCompiler({
      level: filter.level,
      nested: filter.nested,
      userId: filter.viewer.userId,
      today: '2026-01-01',
      dialect: this.dialect,
    });
    const names = compiler.textMatchPlan({ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: 'x' }).values;
    const escaped = this.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    const match = this.equals ? sql`lower(q.v) = ${this.text.toLowerCase()}` : sql`lower(q.v) LIKE ${`%${escaped}%`} ESCAPE '\\'`;
    return { ...filter, condition: sql`it.id IN (SELECT q.k FROM (${names}) q WHERE ${match})` };
  }

  override matches(filter: CompiledFilter) {
    return super.matches(this.scan(filter));
  }

  override pageOfMatchingGroups(filter: CompiledFilter, paging: { page: number; pageSize: number }) {
    return super.pageOfMatchingGroups(this.scan(filter), paging);
  }
}

/**
 * The name-search index (migration 0044, db/name-search.ts). After each kind of change — AniDB titles renamed, added
 * and deleted (also through their anime), title overrides set and cleared, groups renamed, created, nested, moved and
 * deleted, series moved to another group and deleted — the trigram tables hold exactly the names of the base tables
 * (SQLite; PostgreSQL keeps its indexes itself), and the console's collection search (Filter/Preview/Group with
 * AnyContains of Names, series and group level, and AnyEquals) answers the same ids and Total as the scan it replaced,
 * for texts of one to many characters, with LIKE wildcards, quotes, FTS5 operators, upper case and non-ASCII letters.
 */
describe('maintained name search', () => {
  let server: TestServer;
  let admin: string;
  let scanStore: ScanStore;
  let scanService: FiltersService;

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 12, files: 40, seed: 5 }));
    const browse = server.services.collection.browse;
    scanStore = new ScanStore(server.services.db.kysely, browse, server.services.db.dialect);
    scanService = new FiltersService(browse, scanStore);
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await server.request({ method, url, key: admin, body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body ? (res.json() as unknown) : null;
  };
  const seriesIds = async () => (await db().selectFrom('series').select('id').orderBy('id').execute()).map((s) => s.id);
  const groupIds = async () => (await db().selectFrom('groups').select('id').orderBy('id').execute()).map((g) => g.id);

  /** Texts every check searches for, besides those a step adds. */
  const WORDS = ['a', 'ko', 'Ä', 'ä', '%', '_', '50%', 'a_b', '"', 'it"s', 'NEAR(', 'a OR b', '東', '東京の', 'ärger', 'ÄRGER'];

  async function expectFresh(words: string[], expectMatched: string[] = []) {
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
    if (server.services.db.dialect === 'sqlite') {
      for (const { table, column, search } of Object.values(NAME_SEARCH)) {
        const { rows: kept } = await sql<{ id: number; name: string }>`
          SELECT rowid AS id, name FROM ${sql.raw(search)} ORDER BY rowid`.execute(db());
        const { rows: fresh } = await sql<{ id: number; name: string }>`
          SELECT id, ${sql.raw(column)} AS name FROM ${sql.raw(table)} WHERE ${sql.raw(column)} IS NOT NULL ORDER BY id`.execute(db());
        expect(kept, search).toEqual(fresh);
        await sql`INSERT INTO ${sql.raw(search)} (${sql.raw(search)}) VALUES ('integrity-check')`.execute(db());
      }
    } else {
      const { rows } = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_trgm'`.execute(db());
      expect(rows.map((r) => r.indexname).sort()).toEqual(
        Object.values(NAME_SEARCH)
          .map(({ table, column }) => `${table}_${column}_trgm`)
          .sort(),
      );
    }
    const viewer = await server.services.collection.groups.viewer(1);
    const matched = new Set<string>();
    for (const text of [...WORDS, ...words])
      for (const seriesLevel of [true, false])
        for (const type of ['AnyContains', 'AnyEquals']) {
          const body = {
            ApplyAtSeriesLevel: seriesLevel,
            Expression: { Type: type, Left: { Type: 'NamesSelector' }, Parameter: text },
            Sorting: { Type: 'Name', IsInverted: false },
          };
          const served = (await api('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', body)) as ListResult<Group>;
          scanStore.text = text;
          scanStore.equals = type === 'AnyEquals';
          const scanned = await scanService.previewGroups(
            scanService.parseLive(body),
            viewer,
            { page: 1, pageSize: 50 },
            { includeEmpty: true },
          );
          const what = `${type} ${JSON.stringify(text)} ${seriesLevel ? 'series' : 'group'} level`;
          expect([served.Total, served.List.map((g) => g.IDs.ID)], what).toEqual([scanned.Total, scanned.List.map((g) => g.IDs.ID)]);
          if (served.Total > 0) matched.add(text);
        }
    for (const text of expectMatched) expect(matched, text).toContain(text);
  }

  it('holds after the generated collection is stored', async () => {
    const title = await db().selectFrom('anidb_anime_titles').select('value').orderBy('id').executeTakeFirstOrThrow();
    const group = await db().selectFrom('groups').select('name').orderBy('id').executeTakeFirstOrThrow();
    const words = [
      title.value.slice(1, 3),
      title.value.slice(1, 4),
      title.value.slice(1, 5),
      title.value.toUpperCase(),
      title.value,
      group.name.slice(-2).toUpperCase(),
      group.name.slice(-4).toUpperCase(),
      group.name,
    ];
    await expectFresh(words, words);
  });

  it('follows AniDB titles renamed, added and deleted', async () => {
    const titles = await db().selectFrom('anidb_anime_titles').select(['id', 'anime_id']).orderBy('id').execute();
    await db().updateTable('anidb_anime_titles').set({ value: 'Ärger im Büro 50% _off_' }).where('id', '=', titles[0].id).execute();
    // SQLite's lower() folds only ASCII, so 'ä' finds 'Ä' on PostgreSQL only: as the scan did.
    await expectFresh(
      ['büro', 'BÜRO', '50% _off', 'ärger im büro 50% _off_', 'RGER IM BÜRO 50% _OFF_'],
      ['büro', '50% _off', 'RGER IM BÜRO 50% _OFF_'],
    );
    await db()
      .insertInto('anidb_anime_titles')
      .values({ anime_id: titles[1].anime_id, type: 'official', language: 'ja', value: '東京の星 it"s "quoted"' })
      .execute();
    await expectFresh(['東京の星', 'S "QUOTED"'], ['東京の星', 'S "QUOTED"', '東京の']);
    await db().deleteFrom('anidb_anime_titles').where('id', '=', titles[0].id).execute();
    await expectFresh(['büro']);
    // Deleting the anime deletes its titles (a foreign-key cascade); the series keeps its now title-less anime id.
    const { id: _id, ...anime } = await db()
      .selectFrom('anidb_anime')
      .selectAll()
      .where('id', '=', titles[1].anime_id)
      .executeTakeFirstOrThrow();
    const kept = await db().selectFrom('anidb_anime_titles').selectAll().where('anime_id', '=', titles[1].anime_id).execute();
    await db().deleteFrom('anidb_anime').where('id', '=', titles[1].anime_id).execute();
    await expectFresh(['東京の星']);
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: titles[1].anime_id })
      .execute();
    await db()
      .insertInto('anidb_anime_titles')
      .values(kept.map(({ id: _title, ...t }) => t))
      .execute();
    await expectFresh(['東京の星'], ['東京の星']);
  });

  it('follows title overrides set and cleared', async () => {
    const [first, second] = await seriesIds();
    await api('POST', `/api/v3/Series/${first}/OverrideTitle`, { Title: 'Zyxwv Override' });
    await expectFresh(['zyxwv', 'ZYXWV OVERRIDE'], ['zyxwv', 'ZYXWV OVERRIDE']);
    await db().updateTable('series').set({ title_override: 'ÄRGERLICH' }).where('id', '=', second).execute();
    await expectFresh(['ärgerlich', 'RGERL'], ['RGERL']);
    await api('POST', `/api/v3/Series/${first}/OverrideTitle`, { Title: '' });
    await db().updateTable('series').set({ title_override: null }).where('id', '=', second).execute();
    await expectFresh(['zyxwv', 'RGERL']);
  });

  it('follows groups renamed, created, nested, moved and deleted, and series moved and deleted', async () => {
    const series = await seriesIds();
    const groups = await groupIds();
    await api('PATCH', `/api/v3/Group/${groups[0]}`, [{ op: 'replace', path: '/Name', value: 'Qwert Gruppe' }]);
    await db().updateTable('groups').set({ name: 'Über ärger' }).where('id', '=', groups[1]).execute();
    await expectFresh(['qwert', 'ÜBER', 'über ärger', 'ber ärger'], ['qwert', 'ber ärger']);

    // A new group for one series (POST Group moves it), then nested under the renamed group: with nested groups a
    // series also carries its top-level group's name.
    const created = (await api('POST', '/api/v3/Group', { Name: 'Poiuy Neu', HasCustomName: true, SeriesIDs: [series[2]] })) as Group;
    await expectFresh(['poiuy'], ['poiuy']);
    await api('PATCH', `/api/v3/Group/${created.IDs.ID}`, [{ op: 'replace', path: 'ParentGroupID', value: groups[0] }]);
    await expectFresh(['poiuy', 'qwert'], ['poiuy', 'qwert']);
    const stamp = new Date().toISOString();
    const deeper = await insertGroup(db(), { parent_id: created.IDs.ID, name: 'Mnbvc Tief', description: '' }, stamp);
    await db().updateTable('series').set({ group_id: deeper }).where('id', '=', series[3]).execute();
    await expectFresh(['mnbvc', 'poiuy', 'qwert'], ['mnbvc', 'qwert']);
    // The subtree moves under another top-level group, then becomes top-level itself.
    await db().updateTable('groups').set({ parent_id: groups[1] }).where('id', '=', created.IDs.ID).execute();
    await expectFresh(['qwert', 'ber ärger', 'mnbvc'], ['ber ärger', 'mnbvc']);
    await db().updateTable('groups').set({ parent_id: null }).where('id', '=', created.IDs.ID).execute();
    await db().updateTable('groups').set({ name: 'Lkjhg' }).where('id', '=', created.IDs.ID).execute();
    await expectFresh(['lkjhg', 'poiuy', 'ber ärger'], ['lkjhg', 'ber ärger']);

    await db().updateTable('series').set({ group_id: groups[0] }).where('id', '=', series[3]).execute();
    await db().deleteFrom('groups').where('id', '=', deeper).execute();
    await expectFresh(['mnbvc', 'qwert'], ['qwert']);
    await api('DELETE', `/api/v3/Group/${groups[1]}?deleteSeries=true`);
    await expectFresh(['ber ärger', 'lkjhg']);
  });
});
