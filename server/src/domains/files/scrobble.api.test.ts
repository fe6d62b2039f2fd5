import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileUserStats } from '@shoko-ts/contract';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * Players report playback per file (contract files.md F23–F27). An invented series, Kite Harbour: E1 and E2 each have
 * one 24-minute file; E3 has a file without media info (unknown length). Two users keep separate records.
 */
describe('file scrobble and user stats API', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let adminId: number;
  const files: Record<string, number> = {};
  const episodes: Record<string, number> = {};
  const TEN_MINUTES_TICKS = String(10 * 60 * 10_000_000);

  const call = (method: string, url: string, options: { body?: unknown; apiKey?: string } = {}) =>
    server.request({ method, url, key: options.apiKey ?? key, body: options.body });
  const stats = async (fileId: number, apiKey = key) => {
    const res = await call('GET', `/api/v3/File/${fileId}/UserStats`, { apiKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as FileUserStats;
  };
  const episodeWatchedAt = async (episodeId: number, userId: number) =>
    (
      await server.services.db.kysely
        .selectFrom('user_episode_states')
        .select('watched_at')
        .where('user_id', '=', userId)
        .where('episode_id', '=', episodeId)
        .executeTakeFirst()
    )?.watched_at ?? null;
  const expectFieldError = async (method: string, url: string, field: string, body?: unknown) => {
    const res = await call(method, url, { body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
    expect(Object.keys(res.json().errors ?? {}), url).toContain(field);
  };

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    otherKey = (await createUser(server, key, 'other', 'other-pass')).key;
    const db = server.services.db.kysely;
    adminId = (await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const written = await insertSeries(db, [
      {
        animeId: 700,
        title: 'Kite Harbour',
        episodes: [
          { id: 7001, file: true },
          { id: 7002, file: true },
          { id: 7003, file: true },
        ],
      },
    ]);
    const [e1, e2, e3] = written.get(700)!.episodeIds;
    Object.assign(episodes, { e1, e2, e3 });
    const links = await db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .select(['f.id', 'l.episode_id'])
      .execute();
    for (const link of links) files[`e${link.episode_id - 7000}`] = link.id;
    await db
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Duration: '00:24:00' }) })
      .where('id', 'in', [files.e1, files.e2])
      .execute();
  });

  afterAll(() => server?.close());

  it('rejects every scrobble and user stats route without an API key', async () => {
    const routes = server.routes.filter((r) => /File\/:fileID\/(Scrobble|UserStats|Watched)/.test(r.url));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const route of routes) {
      const res = await server.request({
        method: route.method,
        url: route.url.replace(':fileID', String(files.e1)).replace('/:watched?', ''),
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('records a resume position in ticks or as a time span, per user', async () => {
    expect((await call('GET', `/api/v3/File/${files.e1}/UserStats`)).body).toBe(
      'No FileUserStats entry for the given fileID for the current user',
    );
    const res = await call(
      'GET',
      `/api/v3/File/${files.e1}/Scrobble?event=pause&episodeID=${episodes.e1}&resumePosition=${TEN_MINUTES_TICKS}`,
    );
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('The file progress was updated.');
    expect(await stats(files.e1)).toMatchObject({ ResumePosition: '00:10:00', WatchedCount: 0, LastWatchedAt: null });

    const patched = await call('PATCH', `/api/v3/File/${files.e1}/Scrobble?event=pause&resumePosition=00:12:30.5`);
    expect(patched.statusCode).toBe(202);
    expect((await stats(files.e1)).ResumePosition).toBe('00:12:30.5000000');
    // An event without a position or watched flag keeps the record as it was.
    expect((await call('GET', `/api/v3/File/${files.e1}/Scrobble?event=play`)).statusCode).toBe(202);
    expect((await stats(files.e1)).ResumePosition).toBe('00:12:30.5000000');

    expect((await call('GET', `/api/v3/File/${files.e1}/UserStats`, { apiKey: otherKey })).statusCode).toBe(404);
    expect(await episodeWatchedAt(episodes.e1, adminId)).toBeNull();

    // The File model carries the caller's own record, in the single file and in lists; another user sees none.
    const own = (await call('GET', `/api/v3/File/${files.e1}`)).json();
    expect(own).toMatchObject({ ResumePosition: '00:12:30.5000000', Watched: null, Viewed: expect.any(String) });
    const listed = (await call('GET', '/api/v3/File?pageSize=0')).json().List.find((f: { ID: number }) => f.ID === files.e1);
    expect(listed.ResumePosition).toBe('00:12:30.5000000');
    expect((await call('GET', `/api/v3/File/${files.e1}`, { apiKey: otherKey })).json()).toMatchObject({
      ResumePosition: null,
      Viewed: null,
      Watched: null,
    });
  });

  it('treats playing to the end as watched: position back to 0, the episode marked watched', async () => {
    const res = await call('GET', `/api/v3/File/${files.e1}/Scrobble?event=stop&resumePosition=00:24:00`);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('The file was marked as watched.');
    const record = await stats(files.e1);
    expect(record).toMatchObject({ ResumePosition: '00:00:00', WatchedCount: 1 });
    expect(Date.parse(record.LastWatchedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await episodeWatchedAt(episodes.e1, adminId)).not.toBeNull();
    // The other user's episode state is untouched.
    expect((await call('GET', `/api/v3/File/${files.e1}/UserStats`, { apiKey: otherKey })).statusCode).toBe(404);
  });

  it('watched=false clears the watched date on the file and the episode; a file of unknown length never auto-completes', async () => {
    const res = await call('GET', `/api/v3/File/${files.e1}/Scrobble?watched=false`);
    expect(res.body).toBe('The file was marked as unwatched.');
    expect((await stats(files.e1)).LastWatchedAt).toBeNull();
    expect(await episodeWatchedAt(episodes.e1, adminId)).toBeNull();

    await call('GET', `/api/v3/File/${files.e3}/Scrobble?resumePosition=05:00:00`);
    expect(await stats(files.e3)).toMatchObject({ ResumePosition: '05:00:00', LastWatchedAt: null });
  });

  it('POST Watched marks watched by default and unwatched with false', async () => {
    expect((await call('POST', `/api/v3/File/${files.e2}/Watched`)).statusCode).toBe(200);
    expect((await stats(files.e2)).WatchedCount).toBe(1);
    expect(await episodeWatchedAt(episodes.e2, adminId)).not.toBeNull();
    expect((await call('POST', `/api/v3/File/${files.e2}/Watched/false`)).statusCode).toBe(200);
    expect((await stats(files.e2)).LastWatchedAt).toBeNull();
    expect(await episodeWatchedAt(episodes.e2, adminId)).toBeNull();
  });

  it('PUT replaces the record with defaults for missing fields, PATCH edits it', async () => {
    const put = await call('PUT', `/api/v3/File/${files.e2}/UserStats`, {
      body: { ResumePosition: '00:03:00', WatchedCount: 4, LastWatchedAt: '2025-02-01T10:00:00Z' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ ResumePosition: '00:03:00', WatchedCount: 4, LastWatchedAt: '2025-02-01T10:00:00.000Z' });
    const reset = await call('PUT', `/api/v3/File/${files.e2}/UserStats`, { body: {} });
    expect(reset.json()).toMatchObject({ ResumePosition: '00:00:00', WatchedCount: 0, LastWatchedAt: null });

    const patch = await call('PATCH', `/api/v3/File/${files.e2}/UserStats`, {
      body: [
        { op: 'replace', path: 'watchedCount', value: '5' },
        { op: 'replace', path: '/ResumePosition', value: '00:01:00' },
      ],
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(await stats(files.e2)).toMatchObject({ WatchedCount: 5, ResumePosition: '00:01:00' });
    expect((await call('PATCH', `/api/v3/File/${files.e2}/UserStats`, { body: [], apiKey: otherKey })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown file', async () => {
    for (const [method, url] of [
      ['GET', '/api/v3/File/99999/Scrobble?watched=true'],
      ['GET', '/api/v3/File/99999/UserStats'],
      ['POST', '/api/v3/File/99999/Watched'],
    ]) {
      const res = await call(method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe('No File entry for the given fileID');
    }
  });

  it('validates input with 400 problems naming the field', async () => {
    const base = `/api/v3/File/${files.e1}`;
    await expectFieldError('GET', `${base}/Scrobble?resumePosition=-10000000`, 'resumePosition');
    await expectFieldError('GET', `${base}/Scrobble?resumePosition=-00:01:00`, 'resumePosition');
    await expectFieldError('GET', `${base}/Scrobble?resumePosition=ten%20minutes`, 'resumePosition');
    await expectFieldError('GET', `${base}/Scrobble?resumePosition=99999999999999999999`, 'resumePosition');
    await expectFieldError('GET', `${base}/Scrobble?resumePosition=30.00:00:00`, 'resumePosition');
    await expectFieldError('GET', `${base}/Scrobble?watched=maybe`, 'watched');
    await expectFieldError('PATCH', `${base}/Scrobble?episodeID=x`, 'episodeID');
    await expectFieldError('GET', '/api/v3/File/abc/Scrobble', 'fileID');
    await expectFieldError('POST', `${base}/Watched/perhaps`, 'watched');
    await expectFieldError('PUT', `${base}/UserStats`, 'ResumePosition', { ResumePosition: 'later' });
    await expectFieldError('PUT', `${base}/UserStats`, 'WatchedCount', { WatchedCount: -1 });
    await expectFieldError('PUT', `${base}/UserStats`, 'WatchedCount', { WatchedCount: 2 ** 40 });
    await expectFieldError('PUT', `${base}/UserStats`, 'ResumePosition', { ResumePosition: '99.00:00:00' });
    await expectFieldError('PUT', `${base}/UserStats`, 'LastWatchedAt', { LastWatchedAt: 'yesterday' });
    await expectFieldError('PATCH', `${base}/UserStats`, 'path', [{ op: 'replace', path: 'Nope', value: 1 }]);
    await expectFieldError('PATCH', `${base}/UserStats`, 'WatchedCount', [{ op: 'replace', path: 'WatchedCount', value: 'many' }]);
    // Nothing was stored by the rejected calls.
    expect((await stats(files.e1)).ResumePosition).toBe('00:00:00');
  });
});
