import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTION_CATALOGUE, type QueueItem } from '@shoko-ts/contract';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { seedFile, seedImportFolder } from '../../test/seed-files.js';

describe('actions API', () => {
  let server: TestServer;
  let key: string;
  let userKey: string;
  let userId: number;
  const get = (url: string, apiKey = key) => server.request({ method: 'GET', url, key: apiKey });

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    const user = await createUser(server, key, 'plain', 'plain-pass');
    userKey = user.key;
    userId = user.id;
  });

  afterAll(() => server?.close());

  it('serves every catalogue entry and answers each with a result, never a missing route or a crash', async () => {
    for (const entry of ACTION_CATALOGUE) {
      const url = entry.Function.startsWith('/') ? entry.Function : `/api/v3/Action/${entry.Function}`;
      const res = await get(url);
      expect([200, 400], `${entry.Name}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 400) expect(res.body, entry.Name).toMatch(/^[A-Z{].{20,}/);
    }
    await server.services.queue.idle();
  });

  it('requires a key, and an admin for every action (each starts work for the whole server)', async () => {
    expect((await server.request({ method: 'GET', url: '/api/v3/Action/RunImport' })).statusCode).toBe(401);
    expect((await get('/api/v3/Action/UpdateAllMediaInfo', userKey)).statusCode).toBe(403);
    expect((await get('/api/v3/Action/SyncMyList', userKey)).statusCode).toBe(403);
    expect((await get('/api/v3/Action/RunImport', userKey)).statusCode).toBe(403);
    expect((await get('/api/v3/Action/RunImport')).statusCode).toBe(200);
  });

  it('matches action names case-insensitively and says when an integration is absent', async () => {
    const res = await get('/api/v3/Action/UpdateAnidbCalendar');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toBe('The AniDB calendar is not fetched by this server yet.');
  });

  it('answers the contract special cases', async () => {
    const trakt = await get('/api/v3/Action/SendWatchStatesToTrakt');
    expect([trakt.statusCode, trakt.body]).toEqual([400, 'Trakt account is not linked!']);
    const avdump = await get('/api/v3/Action/AVDumpMismatchedFiles');
    expect(avdump.statusCode).toBe(400);
    expect(avdump.json().errors).toEqual({ Settings: ['Missing AVDump API key.'] });
    // Plex sync for everyone: nobody has a Plex login here, so nothing is queued, but the action runs.
    const spy = vi.spyOn(server.services.integrations.plexSync, 'queueAll');
    expect((await get('/api/v3/Action/PlexSyncAll')).statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const hashes = await get('/api/v3/Action/SyncHashes');
    expect(hashes.statusCode).toBe(400);
    expect(hashes.json().title).toBe('Bad Request');
    const manual = await get('/api/v3/Action/AddAllManualLinksToMyList');
    expect([manual.statusCode, manual.body]).toEqual([200, 'Saved 0 AddToMyList Commands']);
    expect((await get('/api/v3/Action/RemoveMissingFiles/maybe')).statusCode).toBe(404);
  });

  it('queues Run Import as a job and returns at once', async () => {
    // A Run Import still running from a test before would take this request's place (one per key).
    await server.services.queue.idle();
    await server.services.queue.pause();
    try {
      expect((await get('/api/v3/Action/RunImport')).statusCode).toBe(200);
      const items = (await get('/api/v3/Queue/Items?pageSize=100&showAll=true')).json() as { List: QueueItem[] };
      expect(items.List.map((i) => i.Type)).toContain('Run Import');
    } finally {
      await server.services.queue.clear();
      await server.services.queue.resume();
    }
  });

  it('Remove Missing Files forgets the records of files gone from disk and keeps the others', async () => {
    const db = server.services.db.kysely;
    const folderPath = fs.mkdtempSync(path.join(server.home, 'folder-'));
    fs.writeFileSync(path.join(folderPath, 'present.mkv'), 'x');
    const folderId = await seedImportFolder(server, 'F', folderPath);
    const addFile = (name: string, size: number) =>
      seedFile(server, { size, ed2k: 'A'.repeat(31) + String(size % 10), location: { importFolderId: folderId, relativePath: name } });
    const present = await addFile('present.mkv', 1);
    const gone = await addFile('gone.mkv', 2);
    expect((await get('/api/v3/Action/RemoveMissingFiles/false')).statusCode).toBe(200);
    await server.services.queue.idle();
    const left = (await db.selectFrom('files').select('id').where('id', 'in', [present, gone]).execute()).map((f) => f.id);
    expect(left).toEqual([present]);
  });

  it('Force Unlink Plex forgets the caller’s Plex token', async () => {
    const db = server.services.db.kysely;
    await db.updateTable('users').set({ plex_token: 'secret-token' }).where('id', '=', userId).execute();
    expect((await get('/plex/token/invalidate', userKey)).statusCode).toBe(200);
    const row = await db.selectFrom('users').select('plex_token').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row.plex_token).toBeNull();
  });
});
