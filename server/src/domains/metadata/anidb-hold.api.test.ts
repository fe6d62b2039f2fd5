import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueItem } from '@shoko-ts/contract';
import { inventedAnimeXml } from '../../../../fakes/src/anidb-http/index.js';
import { importProgress, startServerWithStrictAniDB, type StrictAniDBSetup } from '../../test/strict-anidb.js';

/** AniDB's gaps 20 times shorter for the fakes and the server; the server waits a ban out for 2 s, the fakes ban for 1 s. */
const SCALE = 0.05;
const ANIME = 41_000;
/** Never asked for before the ban: its forced refresh meets the HTTP ban. */
const OTHER_ANIME = 41_100;

interface BanStatus {
  UDP: { Type: string; IsBanned: boolean; BanDuration: string | null };
  HTTP: { Type: string; IsBanned: boolean; BanDuration: string | null };
}

/**
 * The real server process against the strict AniDB fakes: AniDB work queued while AniDB has banned the server is held
 * in the queue (shown as blocked), not dropped, and runs by itself once the ban is over, without a restart.
 */
describe('AniDB work waits out a ban in the queue', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let setup: StrictAniDBSetup;
  let key: string;

  beforeAll(async () => {
    setup = await startServerWithStrictAniDB(cleanups, {
      prefix: 'shoko-hold-',
      scale: SCALE,
      banSeconds: 2,
      fakeBanMs: 1_000,
      files: [1, 2].map((episode) => ({ name: `Held Series - 0${episode}.mkv`, size: 3_000 + episode, animeId: ANIME, episode })),
      anime: {
        [ANIME]: inventedAnimeXml({ id: ANIME, title: 'Held Series', regularEpisodes: 2, relatedAnime: [] }),
        [OTHER_ANIME]: inventedAnimeXml({ id: OTHER_ANIME, title: 'Refreshed Later', regularEpisodes: 1, relatedAnime: [] }),
      },
    });
    key = setup.key;
  }, 120_000);

  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  const queue = () =>
    setup.server.json<{ WaitingCount: number; BlockedCount: number; TotalCount: number }>('GET', '/api/v3/Queue', { key });
  const banStatus = () => setup.server.json<BanStatus>('GET', '/api/v3/AniDB/BanStatus', { key });

  it('holds a file rescan, a MyList add and a forced refresh during a ban, then runs them when it ends', async () => {
    const { server, udp, anidbHttp } = setup;
    await server.waitFor(
      'both files to be recognized',
      async () => {
        const { recognized, queueEmpty } = await importProgress(server, key);
        return recognized === 2 && queueEmpty;
      },
      60_000,
    );
    const { List: localFiles } = await server.json<{ List: Array<{ ID: number }> }>('GET', '/api/v3/File?pageSize=10', { key });

    // AniDB bans the server for a reason of its own: the next UDP packet and the next HTTP request are refused.
    udp.strict!.banNextRequest('another client at this address');
    anidbHttp.strict!.banNextRequest('another client at this address');
    const udpBefore = udp.received.length;
    const httpBefore = anidbHttp.requests.length;
    await server.json('POST', `/api/v3/File/${localFiles[0].ID}/Rescan`, { key });
    await server.waitFor('the UDP ban', async () => (await banStatus()).UDP.IsBanned, 10_000);
    await server.json('POST', `/api/v3/File/${localFiles[1].ID}/AddToMyList`, { key });
    await server.json('POST', `/api/v3/Series/AniDB/${OTHER_ANIME}/Refresh?force=true&createSeriesEntry=true`, { key });
    await server.waitFor('the HTTP ban', async () => (await banStatus()).HTTP.IsBanned, 10_000);

    // All three wait, shown as blocked; none was dropped.
    await server.waitFor('three held jobs', async () => (await queue()).BlockedCount === 3, 5_000);
    const held = await server.json<{ Total: number; List: QueueItem[] }>('GET', '/api/v3/Queue/Items?pageSize=10&showAll=true', { key });
    expect(held.List.map((item) => [item.Type, item.IsBlocked, item.IsRunning]).sort()).toEqual([
      ['Get AniDB Anime Data', true, false],
      ['Get Cross-References for File', true, false],
      ['Update AniDB MyList', true, false],
    ]);
    expect((await server.json<{ Total: number }>('GET', '/api/v3/Queue/Items?pageSize=10', { key })).Total).toBe(0);
    expect(await queue()).toMatchObject({ WaitingCount: 0, BlockedCount: 3, TotalCount: 3 });
    const filters = await server.json<Record<string, string[]>>('GET', '/api/v3/Queue/AcquisitionFilters', { key });
    // AniDB's pictures are held during any AniDB ban too (none is queued here).
    expect(Object.values(filters).flat().sort()).toEqual([
      'DownloadAniDBImageJob',
      'GetAniDBAnimeJob',
      'ProcessFileJob',
      'UpdateMyListFileStatusJob',
    ]);
    // Nothing went to AniDB but the two refused requests.
    expect(udp.received.slice(udpBefore).map((line) => line.split(' ')[0])).toEqual(['FILE']);
    expect(anidbHttp.requests.slice(httpBefore)).toHaveLength(1);

    // The ban ends by itself and the held work runs, with no restart and no new ban.
    await server.waitFor('the held work to finish', async () => (await queue()).TotalCount === 0, 30_000);
    const sent = udp.received.slice(udpBefore).map((line) => line.split(' ')[0]);
    expect(sent.filter((command) => command === 'FILE')).toHaveLength(2);
    expect(sent).toContain('MYLISTADD');
    const asked = anidbHttp.requests.slice(httpBefore).map((request) => Number(/aid=(\d+)/.exec(request)![1]));
    expect(asked).toEqual([OTHER_ANIME, OTHER_ANIME]);
    expect(await server.json<{ Title: string }>('GET', `/api/v3/Series/AniDB/${OTHER_ANIME}`, { key })).toMatchObject({
      Title: 'Refreshed Later',
    });
    expect(udp.strict!.bans.map((ban) => ban.reason)).toEqual(['another client at this address']);
    expect(anidbHttp.strict!.bans.map((ban) => ban.reason)).toEqual(['another client at this address']);
    expect(await banStatus()).toMatchObject({ UDP: { IsBanned: false }, HTTP: { IsBanned: false } });
  }, 90_000);

  it('keeps a refused login across a restart, tries no other login and holds UDP work until the credentials change', async () => {
    const { server, udp } = setup;
    const auths = () => udp.received.filter((line) => line.startsWith('AUTH ')).length;
    const setPassword = (value: string) =>
      server.json('PATCH', '/api/v3/Settings', { key, body: [{ op: 'replace', path: '/AniDb/Password', value }] });
    const { List: localFiles } = await server.json<{ List: Array<{ ID: number }> }>('GET', '/api/v3/File?pageSize=10', { key });
    await setPassword('not-the-password');
    const authsBefore = auths();
    await server.json('POST', `/api/v3/File/${localFiles[0].ID}/AddToMyList`, { key });
    await server.waitFor('the refused login', async () => (await banStatus()).UDP.Type === 'InvalidSession', 10_000);
    expect((await banStatus()).UDP).toMatchObject({ Type: 'InvalidSession', IsBanned: true, BanDuration: null });
    await server.waitFor('the MyList update to be held', async () => (await queue()).BlockedCount === 1, 5_000);
    expect(auths()).toBe(authsBefore + 1);

    await server.stop();
    await server.start();
    await server.waitForStarted();
    key = await server.login();
    expect((await banStatus()).UDP).toMatchObject({ Type: 'InvalidSession', IsBanned: true, BanDuration: null });
    // Work that needs a login waits, and no login is tried with the refused credentials.
    await server.json('POST', `/api/v3/File/${localFiles[1].ID}/Rescan`, { key });
    await server.waitFor('both jobs to be held', async () => (await queue()).BlockedCount === 2, 5_000);
    expect(auths()).toBe(authsBefore + 1);

    // New credentials in the settings lift it: the held work logs in and runs by itself.
    const fileLookups = udp.received.filter((line) => line.startsWith('FILE ')).length;
    await setPassword('secret1');
    await server.waitFor('the held work to finish', async () => (await queue()).TotalCount === 0, 30_000);
    expect((await banStatus()).UDP).toMatchObject({ IsBanned: false });
    expect(auths()).toBe(authsBefore + 2);
    expect(udp.received.filter((line) => line.startsWith('FILE '))).toHaveLength(fileLookups + 1);
    expect(udp.received.at(-1)).toMatch(/^(MYLISTADD|FILE) /);
    expect(udp.strict!.bans).toHaveLength(1);
  }, 90_000);
});
