import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterCondition } from '@shoko-ts/contract';
import type { TestServer } from '../../test/harness.js';
import { seedImportFolder } from '../../test/seed-files.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

/**
 * A series' file paths are kept joined by the unit separator (U+001F) for the filters. A file name may hold that
 * character too (Linux allows it); a path split there would be two paths, and "every path holds the text" would be asked
 * of each half. On PostgreSQL AllContains reads the kept paths only while no stored path holds the separator.
 */
describe('FilePaths filters when a file name holds the path separator', () => {
  let server: TestServer;
  let key: string;
  const ids: Record<'Kaze' | 'Mizu', number> = { Kaze: 0, Mizu: 0 };

  const matching = async (expression: FilterCondition, seriesLevel: boolean) => {
    const res = await server.request({
      method: 'POST',
      url: `/api/v3/Filter/Preview/${seriesLevel ? 'Series' : 'Group'}?pageSize=0`,
      key,
      body: { ApplyAtSeriesLevel: seriesLevel, Expression: expression, Sorting: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { List: Array<{ Name: string }> }).List.map((entry) => entry.Name).sort();
  };

  beforeAll(async () => {
    ({ server, key } = await seriesTestServer([]));
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Kaze Series',
        episodes: [
          { id: 11, file: true },
          { id: 12, file: true },
        ],
      },
      { animeId: 2, title: 'Mizu Series', episodes: [{ id: 21, file: true }] },
    ]);
    ids.Kaze = written.get(1)!.seriesId;
    ids.Mizu = written.get(2)!.seriesId;
    const folder = await seedImportFolder(server, 'Anime', '/media/anime');
    const fileOf = async (episodeId: number) =>
      (
        await db
          .selectFrom('files')
          .select('id')
          .where('size', '=', 100_000_000 + episodeId)
          .executeTakeFirstOrThrow()
      ).id;
    const paths: Array<[number, string]> = [
      [11, 'Kaze/kaze 01.mkv'],
      // One path, "kaze" before the separator only: split, its second half would lack it.
      [12, 'Kaze/kaze\u001f02 extra.mkv'],
      [21, 'Mizu/mizu 01.mkv'],
    ];
    for (const [episodeId, relativePath] of paths)
      await db
        .insertInto('file_locations')
        .values({
          file_id: await fileOf(episodeId),
          import_folder_id: folder,
          relative_path: relativePath,
          is_accessible: 1,
          mtime_ms: null,
        })
        .execute();
  }, 60_000);
  afterAll(() => server.close());

  it('takes such a path whole: every path of Kaze holds "kaze", none of Mizu does', async () => {
    const every = { Type: 'AllContains', Left: { Type: 'FilePaths' }, Parameter: 'kaze' } as FilterCondition;
    expect(await matching(every, true)).toEqual(['Kaze Series']);
    expect(await matching(every, false)).toEqual(['Kaze Series']);
    // "extra" is in one of Kaze's two paths only.
    const extra = { Type: 'AllContains', Left: { Type: 'FilePaths' }, Parameter: 'EXTRA' } as FilterCondition;
    expect(await matching(extra, true)).toEqual([]);
    const any = { Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'extra' } as FilterCondition;
    expect(await matching(any, true)).toEqual(['Kaze Series']);
  });
});
