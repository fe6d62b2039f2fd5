import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import type { ServerEvents } from '../../events/bus.js';
import { PermanentJobError, type JobDefinition } from '../../jobs/job.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

interface FilterList {
  List: Array<{ Name: string; Size: number }>;
}

/**
 * What a job's end drops: the series search index, the filters' kept Sizes and the read cache are kept from the
 * collection, so a job that changed it drops them (the search index only when it wrote series or titles); one that
 * failed without writing (an AniDB lookup while AniDB cannot be asked: here no credentials are set) leaves them. Series are written behind the services' backs to see which:
 * a kept index or Size does not show them until something drops it.
 */
describe('job ends and what is kept from the collection', () => {
  let server: TestServer;
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  const db = () => server.services.db.kysely;

  beforeAll(async () => {
    ({ server, api } = await seriesTestServer([]));
    await insertSeries(db(), [{ animeId: 301, title: 'Harbor Lights', airDate: '2020-01-05', episodes: [{ id: 3001, file: true }] }]);
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
  });

  afterAll(async () => {
    await server?.close();
  });

  const get = async <T>(url: string): Promise<T> => {
    const res = await api('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const found = async () => (await get<Array<{ Name: string }>>('/api/v3/Series/Search?query=Harbor&limit=10')).map((s) => s.Name).sort();
  const sizes = async () => (await get<FilterList>('/api/v3/Filter?pageSize=0&includeEmpty=true')).List.map((f) => `${f.Name} ${f.Size}`);

  /** Runs one job through the queue and answers what its end announced. */
  const runJob = async <P>(definition: JobDefinition<P>, payload: P): Promise<ServerEvents['job:finished']> => {
    const ended = new Promise<ServerEvents['job:finished']>((resolve) => {
      const off = server.services.bus.on('job:finished', (event) => {
        if (event.type !== definition.type) return;
        off();
        resolve(event);
      });
    });
    await server.services.queue.enqueue(definition, payload);
    return ended;
  };
  const testJob = (kind: string, run: () => Promise<void>): JobDefinition<Record<string, never>> => {
    const definition: JobDefinition<Record<string, never>> = {
      kind,
      type: kind,
      title: kind,
      group: 'Test',
      priority: 0,
      key: () => kind,
      details: () => ({}),
      run,
    };
    server.services.queue.register(definition);
    return definition;
  };

  it('keeps the search index and the filter Sizes when an AniDB lookup fails, drops them when a job links a file', async () => {
    expect(await found()).toEqual(['Harbor Lights']);
    const before = await sizes();
    expect(before).toContain('All 1');

    const written = await insertSeries(db(), [
      { animeId: 302, title: 'Harbor Mist', airDate: '2021-01-05', episodes: [{ id: 3101, file: true }] },
    ]);
    const mistFile = await db()
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .select('f.id')
      .where('l.episode_id', '=', 3101)
      .executeTakeFirstOrThrow();
    expect(written.get(302)).toBeDefined();

    // The real lookup job: AniDB cannot be asked (no credentials), so it fails having written nothing.
    const lookupEnded = new Promise<ServerEvents['job:finished']>((resolve) => {
      const off = server.services.bus.on('job:finished', (event) => {
        if (event.type !== server.services.metadata.fileMatching.job.type) return;
        off();
        resolve(event);
      });
    });
    await server.services.metadata.fileMatching.queue(mistFile.id, { force: true });
    expect(await lookupEnded).toMatchObject({ changed: false });
    expect(await found()).toEqual(['Harbor Lights']);
    expect(await sizes()).toEqual(before);

    // A job that only read, or only queued other work, and failed changed nothing either.
    const queuesThenFails = testJob('QueuesThenFails', async () => {
      await db().selectFrom('series').selectAll().execute();
      throw new PermanentJobError('the far end is unreachable');
    });
    expect(await runJob(queuesThenFails, {})).toMatchObject({ changed: false });
    expect(await found()).toEqual(['Harbor Lights']);

    // A job that links a file changed the collection: the next search and list see both series written since.
    const links = testJob('LinksAFile', async () => {
      await insertSeries(db(), [{ animeId: 303, title: 'Harbor Dawn', airDate: '2022-01-05', episodes: [{ id: 3201, file: true }] }]);
    });
    expect(await runJob(links, {})).toMatchObject({ changed: true });
    expect(await found()).toEqual(['Harbor Dawn', 'Harbor Lights', 'Harbor Mist']);
    expect(await sizes()).toContain('All 3');
  });

  it('drops the search index when a job wrote series or titles and then failed, not when it wrote other tables only', async () => {
    expect(await found()).toEqual(['Harbor Dawn', 'Harbor Lights', 'Harbor Mist']);
    await insertSeries(db(), [{ animeId: 304, title: 'Harbor Ice', airDate: '2023-01-05', episodes: [{ id: 3301, file: true }] }]);
    expect(await found()).toEqual(['Harbor Dawn', 'Harbor Lights', 'Harbor Mist']);
    // Files, folders and figures are no series' name: the index stays as it was (the read cache and Sizes are dropped).
    const writesFilesThenFails = testJob('WritesFilesThenFails', async () => {
      await db().updateTable('files').set({ is_ignored: 0 }).where('id', '<', 0).execute();
      throw new PermanentJobError('failed after its write');
    });
    expect(await runJob(writesFilesThenFails, {})).toMatchObject({ changed: true, tables: new Set(['files']) });
    expect(await found()).toEqual(['Harbor Dawn', 'Harbor Lights', 'Harbor Mist']);
    const writesSeriesThenFails = testJob('WritesSeriesThenFails', async () => {
      await db().updateTable('series').set({ title_override: null }).where('id', '<', 0).execute();
      throw new PermanentJobError('failed after its write');
    });
    expect(await runJob(writesSeriesThenFails, {})).toMatchObject({ changed: true });
    expect(await found()).toEqual(['Harbor Dawn', 'Harbor Ice', 'Harbor Lights', 'Harbor Mist']);
  });
});
