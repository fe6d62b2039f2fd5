import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { getJson, type TestServer } from '../../test/harness.js';
import { insertSeries, placeFiles } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';
import { SERIES_WIDE_FROM } from './episodes.wiring.js';

type FileModel = { ID: number; Locations: Array<{ ID: number }>; SeriesIDs?: Array<{ EpisodeIDs: Array<{ AniDB: number }> }> };
type EpisodeModel = { IDs: { ID: number; AniDB: number }; Files?: FileModel[] };
type Summary = { Groups: Array<{ Episodes?: Array<{ EpisodeID: number; FileID: number; Type: string }> }> };

/**
 * A long series' whole episode list reads its files for the whole series in one statement (issue 45); a page of up to
 * SERIES_WIDE_FROM episodes reads its own episodes' contents. Both must answer the same models: the whole list is
 * compared with its pages for every include combination and both viewers. Invented data: "Long Voyage" (anime 610,
 * 160 episodes of four types, some with two releases, some without a file), a multi-episode file, a manual link, an
 * ignored file, a second location for every 7th file, a file shared with "Red Harbour" (anime 620, tag 88, restricted
 * for the viewer), and locations whose path order is not their id order.
 */
describe('a long series’ episodes with their files', () => {
  let server: TestServer;
  let keys: { admin: string; viewer: string };
  let seriesId: number;

  beforeAll(async () => {
    const setup = await seriesTestServer([88]);
    server = setup.server;
    keys = { admin: setup.key, viewer: setup.viewer.key };
    const db = server.services.db.kysely;
    const types = ['Episode', 'Episode', 'Episode', 'Special', 'Other', 'Credits'];
    const created = await insertSeries(db, [
      {
        animeId: 610,
        title: 'Long Voyage',
        airDate: '2018-01-01',
        episodes: Array.from({ length: 160 }, (_, i) => ({
          id: 61_000 + i,
          type: types[i % types.length],
          number: i + 1,
          file: i % 11 === 0 ? 2 : i % 9 === 4 ? false : true,
          hidden: i % 37 === 5,
        })),
      },
      {
        animeId: 620,
        title: 'Red Harbour',
        airDate: '2019-01-01',
        tags: [{ id: 88, name: 'restricted' }],
        episodes: [{ id: 62_001, file: true }],
      },
    ]);
    seriesId = created.get(610)!.seriesId;
    await placeFiles(db, { unrecognized: 3, duplicateEvery: 7 });
    const content = (anidb: number) =>
      db
        .selectFrom('file_episode_links')
        .select(['ed2k', 'size'])
        .where('episode_id', '=', anidb)
        .orderBy('size')
        .executeTakeFirstOrThrow();
    const link = async (from: number, to: number, animeId: number, source: 'AniDB' | 'User') =>
      db
        .insertInto('file_episode_links')
        .values({
          ...(await content(from)),
          anime_id: animeId,
          episode_id: to,
          percentage: 50,
          ordering: 1,
          source,
          release_group_id: null,
        })
        .execute();
    // Episode 2's file also covers episode 3, episode 20's is linked by hand to episode 21, episode 30's also belongs to
    // the restricted anime's episode, episode 40's file is ignored.
    await link(61_001, 61_002, 610, 'AniDB');
    await link(61_019, 61_020, 610, 'User');
    await link(61_029, 62_001, 620, 'AniDB');
    const ignored = await content(61_039);
    await db.updateTable('files').set({ is_ignored: 1 }).where('ed2k', '=', ignored.ed2k).where('size', '=', ignored.size).execute();
    // Paths against id order: the later a file, the earlier its path.
    await sql`UPDATE file_locations SET relative_path = 'Series/' || (100000 - file_id) || '.mkv' WHERE file_id % 3 = 0`.execute(db);
  });

  afterAll(async () => {
    await server?.close();
  });

  // The invented import folders do not exist: the server's folder check may mark their locations unreachable between
  // two requests, so the comparison leaves that one flag out.
  const withoutReachability = (list: EpisodeModel[]) => JSON.stringify(list).replace(/"IsAccessible":(true|false)/g, '"IsAccessible":-');

  const episodes = (query: string, key: string) =>
    getJson<{ Total: number; List: EpisodeModel[] }>(server, `/api/v3/Series/${seriesId}/Episode?${query}`, key);

  it('answers the whole list as its pages, for every include combination and both viewers', async () => {
    const flags = ['includeMediaInfo', 'includeAbsolutePaths', 'includeXRefs'];
    const combinations = flags.reduce<string[][]>((all, flag) => [...all, ...all.map((set) => [...set, flag])], [[]]);
    let filesSeen = 0;
    for (const key of [keys.admin, keys.viewer])
      for (const dataFrom of ['', '&includeDataFrom=AniDB,TMDB'])
        for (const set of combinations) {
          const query = `includeFiles=true${set.map((f) => `&${f}=true`).join('')}${dataFrom}&includeMissing=true&includeHidden=true`;
          const whole = await episodes(`pageSize=0&${query}`, key);
          expect(whole.List.length).toBeGreaterThan(SERIES_WIDE_FROM);
          const pages: EpisodeModel[] = [];
          for (let page = 1; pages.length < whole.Total; page++)
            pages.push(...(await episodes(`pageSize=50&page=${page}&${query}`, key)).List);
          expect(withoutReachability(whole.List)).toBe(withoutReachability(pages));
          filesSeen += whole.List.reduce((n, e) => n + (e.Files?.length ?? 0), 0);
        }
    expect(filesSeen).toBeGreaterThan(0);
  }, 180_000);

  it('lists a multi-episode file under both episodes, a hand-linked one under its episode, no ignored file, and hides the restricted one from the viewer', async () => {
    const byAnidb = async (key: string) =>
      new Map(
        (await episodes('pageSize=0&includeFiles=true&includeMissing=true', key)).List.map((e) => [e.IDs.AniDB, e.Files!.map((f) => f.ID)]),
      );
    const admin = await byAnidb(keys.admin);
    const viewer = await byAnidb(keys.viewer);
    expect(admin.get(61_002)).toEqual(expect.arrayContaining(admin.get(61_001)!));
    expect(admin.get(61_002)!.length).toBe(2);
    expect(admin.get(61_020)).toEqual(expect.arrayContaining(admin.get(61_019)!));
    expect(admin.get(61_039)).toEqual([]);
    expect(admin.get(61_029)!.length).toBe(1);
    expect(viewer.get(61_029)).toEqual([]);
    // Episode 12 (two releases): in the list's order, folder then path.
    expect(admin.get(61_011)!.length).toBe(2);
  });

  it('summarises each file and episode once, and only the episodes of the asked types', async () => {
    const files = await getJson<{ List: FileModel[] }>(
      server,
      `/api/v3/Series/${seriesId}/File?pageSize=0&include=XRefs,Ignored`,
      keys.admin,
    );
    const expected = new Set(
      files.List.flatMap((f) =>
        [...new Set(f.SeriesIDs!.flatMap((s) => s.EpisodeIDs.map((e) => e.AniDB)).filter((id) => id >= 61_000 && id < 62_000))].map(
          (anidb) => `${anidb}:${f.ID}`,
        ),
      ),
    );
    const summary = await getJson<Summary>(
      server,
      `/api/v3/WebUI/Series/${seriesId}/FileSummary?type=&groupBy=ED2K&includeEpisodeDetails=true`,
      keys.admin,
    );
    const pairs = summary.Groups.flatMap((g) => g.Episodes!.map((e) => `${e.EpisodeID}:${e.FileID}`));
    expect(pairs.length).toBe(new Set(pairs).size);
    expect(new Set(pairs)).toEqual(expected);
    const specials = await getJson<Summary>(
      server,
      `/api/v3/WebUI/Series/${seriesId}/FileSummary?type=Special&groupBy=GroupName,AudioLanguages&includeEpisodeDetails=true`,
      keys.admin,
    );
    const types = new Set(specials.Groups.flatMap((g) => g.Episodes!.map((e) => e.Type)));
    expect([...types]).toEqual(['Special']);
  });
});
