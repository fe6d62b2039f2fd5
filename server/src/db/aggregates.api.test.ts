import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';

/**
 * The maintained series aggregates (migration 0023, db/aggregates.ts) against a fresh computation from the base
 * tables, done here in plain code, after changes made through the API and straight in the tables.
 */
describe('maintained series aggregates', () => {
  let server: TestServer;
  let admin: string;
  let other: { id: number; key: string };

  beforeAll(async () => {
    ({ server, admin, other } = await serverWithCollection({ series: 12, files: 120, seed: 7 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Any collection page brings the aggregates up to date before it reads them (a new page size each time, so the
   * few-second read cache does not answer instead). */
  let visits = 0;
  const visit = async (key = admin) => {
    visits += 1;
    const res = await server.request({ method: 'POST', url: `/api/v3/Filter/Preview/Group?pageSize=${visits}`, key, body: {} });
    expect(res.statusCode).toBe(200);
  };

  async function expected() {
    const db = server.services.db.kysely;
    const [series, episodes, anidbEpisodes, links, files, anidbFiles, states] = await Promise.all([
      db.selectFrom('series').select('id').execute(),
      db.selectFrom('episodes').select(['id', 'series_id', 'anidb_episode_id', 'is_hidden']).execute(),
      db.selectFrom('anidb_episodes').select(['id', 'type', 'number', 'air_date']).execute(),
      db.selectFrom('file_episode_links').select(['ed2k', 'size', 'episode_id']).execute(),
      db.selectFrom('files').select(['id', 'ed2k', 'size', 'created_at', 'media_info']).execute(),
      db.selectFrom('anidb_files').select(['ed2k', 'size', 'source', 'audio_languages', 'subtitle_languages', 'group_id']).execute(),
      db.selectFrom('user_episode_states').select(['user_id', 'episode_id', 'watched_at']).execute(),
    ]);
    const content = (r: { ed2k: string; size: number | string }) => `${r.ed2k}/${Number(r.size)}`;
    const filesOf = new Map<string, typeof files>();
    for (const f of files) filesOf.set(content(f), [...(filesOf.get(content(f)) ?? []), f]);
    const anidbOf = new Map(anidbFiles.map((a) => [content(a), a]));
    const aired = new Map(anidbEpisodes.map((a) => [a.id, a]));
    const localFiles = (e: (typeof episodes)[number]) =>
      links.filter((l) => l.episode_id === e.anidb_episode_id).flatMap((l) => filesOf.get(content(l)) ?? []);
    const day = (text: string | null) => (text ? text.slice(0, 10) : null);
    const max = (values: Array<string | null>) =>
      values
        .filter((v) => v !== null)
        .sort()
        .at(-1) ?? null;
    const min = (values: Array<string | null>) => values.filter((v) => v !== null).sort()[0] ?? null;
    const aggregates = [];
    const values = [];
    const users = [];
    for (const s of series) {
      const own = episodes.filter((e) => e.series_id === s.id);
      const fileSet = new Map(own.flatMap(localFiles).map((f) => [f.id, f]));
      const known = [...fileSet.values()].filter((f) => anidbOf.has(content(f)));
      const missing = own.filter((e) => {
        const ae = aired.get(e.anidb_episode_id);
        return !e.is_hidden && ae && ['Episode', 'Special'].includes(ae.type) && ae.air_date !== null && localFiles(e).length === 0;
      });
      const missingDates = missing.map((e) => aired.get(e.anidb_episode_id)!.air_date);
      const isNormal = (e: (typeof own)[number]) => aired.get(e.anidb_episode_id)?.type === 'Episode';
      const lastLocal = Math.max(
        ...own.filter((e) => isNormal(e) && localFiles(e).length > 0).map((e) => aired.get(e.anidb_episode_id)!.number),
      );
      const collecting = missing.filter((e) => isNormal(e) && aired.get(e.anidb_episode_id)!.number < lastLocal);
      aggregates.push({
        series_id: s.id,
        file_count: fileSet.size,
        anidb_file_count: known.length,
        local_episode_count: own.filter((e) => !e.is_hidden && localFiles(e).length > 0).length,
        last_added: max([...fileSet.values()].map((f) => day(f.created_at))),
        missing_count: missing.length,
        missing_first_air: min(missingDates),
        missing_last_air: max(missingDates),
        local_normal_count: own.filter((e) => !e.is_hidden && isNormal(e) && localFiles(e).length > 0).length,
        collecting_count: collecting.length,
        collecting_last_air: max(collecting.map((e) => aired.get(e.anidb_episode_id)!.air_date)),
      });
      const counts = new Map<string, Set<number>>();
      const add = (kind: string, value: unknown, fileId: number) => {
        if (typeof value !== 'string') return;
        const key = `${kind}\u0000${value.toLowerCase()}`;
        counts.set(key, (counts.get(key) ?? new Set()).add(fileId));
      };
      for (const f of known) {
        const a = anidbOf.get(content(f))!;
        add('source', a.source, f.id);
        add('release_group', a.group_id > 0 ? String(a.group_id) : null, f.id);
        for (const lang of JSON.parse(a.audio_languages) as string[]) add('audio', lang, f.id);
        for (const lang of JSON.parse(a.subtitle_languages) as string[]) add('subtitle', lang, f.id);
      }
      for (const f of fileSet.values())
        for (const video of (f.media_info ? JSON.parse(f.media_info).Video : []) ?? []) add('resolution', video.Resolution, f.id);
      for (const e of missing) {
        const key = `missing_air\u0000${aired.get(e.anidb_episode_id)!.air_date}`;
        counts.set(key, (counts.get(key) ?? new Set()).add(e.id));
      }
      for (const [key, ids] of counts) {
        const [kind, value] = key.split('\u0000');
        values.push({ series_id: s.id, kind, value, file_count: ids.size });
      }
      const byUser = new Map<number, Array<{ e: (typeof own)[number]; watched_at: string | null }>>();
      for (const e of own)
        for (const w of states.filter((st) => st.episode_id === e.id))
          byUser.set(w.user_id, [...(byUser.get(w.user_id) ?? []), { e, watched_at: w.watched_at }]);
      for (const [userId, rows] of byUser) {
        const watched = rows.filter((r) => !r.e.is_hidden && r.watched_at !== null);
        users.push({
          series_id: s.id,
          user_id: userId,
          watched_count: watched.length,
          watched_local_count: watched.filter((r) => localFiles(r.e).length > 0).length,
          watched_normal_local_count: watched.filter((r) => isNormal(r.e) && localFiles(r.e).length > 0).length,
          first_watched: min(rows.map((r) => day(r.watched_at))),
          last_watched: max(rows.map((r) => day(r.watched_at))),
        });
      }
    }
    return { aggregates, values, users };
  }

  async function stored() {
    const db = server.services.db.kysely;
    const numbers = <T extends Record<string, unknown>>(rows: T[]) =>
      rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /count|_id$/.test(k) ? Number(v) : v])),
      );
    return {
      aggregates: numbers(await db.selectFrom('series_aggregates').selectAll().execute()),
      values: numbers(await db.selectFrom('series_aggregate_values').selectAll().execute()),
      users: numbers(await db.selectFrom('series_user_aggregates').selectAll().execute()),
    };
  }

  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r, Object.keys(r as object).sort())).sort();
  async function expectConsistent() {
    await visit();
    const [want, have] = await Promise.all([expected(), stored()]);
    expect(sorted(have.aggregates)).toEqual(sorted(want.aggregates));
    expect(sorted(have.values)).toEqual(sorted(want.values));
    expect(sorted(have.users)).toEqual(sorted(want.users));
    expect(await server.services.db.kysely.selectFrom('aggregate_dirty_series').selectAll().execute()).toEqual([]);
    return want;
  }

  it('match the base tables after generation, links, unlinks, deletes, imports and watch-state changes', async () => {
    const first = await expectConsistent();
    expect(first.aggregates.length).toBe(12);
    expect(first.users.length).toBeGreaterThan(0);
    const db = server.services.db.kysely;
    const episodes = await db.selectFrom('episodes').select(['id', 'series_id']).orderBy('id').execute();
    const fileIds = (await db.selectFrom('files').select('id').orderBy('id').execute()).map((f) => f.id);
    const [a, b] = [episodes[0]!, episodes.find((e) => e.series_id !== episodes[0]!.series_id)!];

    // An import as the pipeline writes it (file and AniDB record), then manual links through the API: both new files
    // to an episode, then the second one unlinked again; later media info and a new source.
    const stamp = '2031-02-03T04:05:06.000Z';
    const imported: number[] = [];
    const { id: _id, ...fileTemplate } = await db.selectFrom('files').selectAll().where('id', '=', fileIds[3]!).executeTakeFirstOrThrow();
    const anidbTemplate = await db.selectFrom('anidb_files').selectAll().limit(1).executeTakeFirstOrThrow();
    for (const [size, hash] of [
      [4242, 'AB'.repeat(16)],
      [4343, 'CD'.repeat(16)],
    ] as const) {
      // Copies of a generated file's rows under new content.
      const file = await db
        .insertInto('files')
        .values({ ...fileTemplate, size, ed2k: hash, media_info: null, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      imported.push(file.id);
      await db
        .insertInto('anidb_files')
        .values({
          ...anidbTemplate,
          ed2k: hash,
          size,
          source: 'Web',
          audio_languages: '["Japanese","German"]',
          subtitle_languages: '["English"]',
        })
        .execute();
      const res = await server.request({ method: 'POST', url: `/api/v3/File/${file.id}/Link`, key: admin, body: { EpisodeIDs: [b.id] } });
      expect(res.statusCode).toBe(200);
    }
    // A local file with a linked file's ed2k but another size is other content: it belongs to no series.
    const linked = await db.selectFrom('file_episode_links').select(['ed2k', 'size']).limit(1).executeTakeFirstOrThrow();
    await db
      .insertInto('files')
      .values({
        ...fileTemplate,
        ed2k: linked.ed2k,
        size: Number(linked.size) + 1,
        created_at: '2032-01-01T00:00:00.000Z',
        updated_at: stamp,
      })
      .execute();
    await expectConsistent();
    let res = await server.request({ method: 'DELETE', url: `/api/v3/File/${imported[1]}/Link`, key: admin });
    expect(res.statusCode).toBe(200);
    // A file record deleted (the file stays on disk), an episode hidden.
    res = await server.request({ method: 'DELETE', url: `/api/v3/File/${fileIds[2]}?removeFiles=false`, key: admin });
    expect(res.statusCode).toBe(200);
    res = await server.request({ method: 'POST', url: `/api/v3/Episode/${a.id}/SetHidden?value=true`, key: admin });
    expect(res.statusCode).toBe(200);
    // Watch state of two users.
    for (const [key, episode, watched] of [
      [admin, a.id, true],
      [admin, b.id, false],
      [other.key, b.id, true],
      [other.key, episodes[2]!.id, false],
    ] as const) {
      res = await server.request({ method: 'POST', url: `/api/v3/Episode/${episode}/Watched/${watched}`, key });
      expect(res.statusCode).toBe(200);
    }
    await expectConsistent();

    await db
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Video: [{ Resolution: '1920x1080' }], Audio: [] }) })
      .where('id', '=', imported[0]!)
      .execute();
    // A new source, and the release group AniDB names for the file.
    await db.updateTable('anidb_files').set({ source: 'Blu-ray', group_id: 77 }).where('ed2k', '=', 'AB'.repeat(16)).execute();
    const after = await expectConsistent();
    // The comparison covered every kind of figure, gaps included.
    for (const figure of ['missing_count', 'collecting_count', 'local_normal_count', 'anidb_file_count'] as const)
      expect(after.aggregates.some((r) => r[figure] > 0)).toBe(true);
    expect(after.users.some((r) => r.watched_normal_local_count > 0)).toBe(true);
    const series = after.aggregates.find((r) => r.series_id === b.series_id)!;
    expect(series.last_added).toBe('2031-02-03');
    expect(after.values).toContainEqual({ series_id: b.series_id, kind: 'resolution', value: '1920x1080', file_count: 1 });
    expect(after.values).toContainEqual({ series_id: b.series_id, kind: 'release_group', value: '77', file_count: 1 });

    // The filters read them: the new file's series has a 1080p file and the admin's fresh watch date.
    res = await server.request({
      method: 'POST',
      url: '/api/v3/Filter/Preview/Series?pageSize=0',
      key: admin,
      body: { ApplyAtSeriesLevel: true, Expression: { Type: 'HasResolution', Parameter: '1920x1080' } },
    });
    expect(res.json().List.map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([b.series_id]);
  });
});
