import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedAnidbAnime } from '../../test/seed-anidb.js';

/**
 * Offline is not missing (issue 49): an import folder of real, hashed files made unavailable the ways a home server
 * loses a drive — its root gone, a mount point left empty, a root that cannot be read — with the watcher on. Every
 * clean-up then runs, every record stays, clients see the files as not accessible, and all resumes when it is back.
 */

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Fault {
  name: string;
  /** Takes the folder away; returns the way back. */
  takeAway(root: string): () => void;
  reason: RegExp;
}

const moveAll = (from: string, to: string) => {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from)) fs.renameSync(path.join(from, entry), path.join(to, entry));
};

const FAULTS: Fault[] = [
  {
    name: 'root renamed away (a share not mounted)',
    takeAway(root) {
      fs.renameSync(root, `${root}.unplugged`);
      return () => fs.renameSync(`${root}.unplugged`, root);
    },
    reason: /does not exist/,
  },
  {
    name: 'mount point left empty (files moved away, directory kept)',
    takeAway(root) {
      moveAll(root, `${root}.drive`);
      return () => {
        moveAll(`${root}.drive`, root);
        fs.rmdirSync(`${root}.drive`);
      };
    },
    reason: /is empty, but \d+ file\(s\) were recorded/,
  },
  {
    // chmod 000 does not stop root; a root that resolves to itself cannot be read by anyone (ELOOP).
    name: process.getuid?.() === 0 ? 'root unreadable (a symbolic link loop: tests run as root)' : 'root unreadable (chmod 000)',
    takeAway(root) {
      if (process.getuid?.() !== 0) {
        fs.chmodSync(root, 0o000);
        return () => fs.chmodSync(root, 0o755);
      }
      fs.renameSync(root, `${root}.real`);
      fs.symlinkSync(root, root);
      return () => {
        fs.unlinkSync(root);
        fs.renameSync(`${root}.real`, root);
      };
    },
    reason: process.getuid?.() === 0 ? /cannot be read: ELOOP/ : /permission denied/,
  },
];

describe('an import folder that goes offline keeps every record', () => {
  let server: TestServer;
  let key: string;
  let base: string;
  let tick: (() => void) | null = null;
  let healthyFolder: number;
  const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const availability = () => server.services.folderAvailability;
  /** The periodic check, as its timer would run it, and its completion. */
  const advanceTimer = async () => {
    tick!();
    await availability().checkAll();
  };
  const watchers = () => (server.services.watcher as unknown as { watchers: Map<number, unknown> }).watchers;
  let nextEpisode = 9_000;

  beforeAll(async () => {
    server = await createTestServer({
      services: {
        folderAvailability: {
          timer: (run) => {
            tick = run;
            return () => (tick = null);
          },
        },
      },
    });
    key = await completeFirstRun(server);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-offline-'));
    server.services.bus.on('shoko', (event) => events.push(event as (typeof events)[number]));
    // A healthy folder beside: Remove Missing Files still forgets what is really gone there.
    const healthy = path.join(base, 'healthy');
    fs.mkdirSync(healthy);
    fs.writeFileSync(path.join(healthy, 'kept.mkv'), randomBytes(30_000));
    fs.writeFileSync(path.join(healthy, 'deleted.mkv'), randomBytes(31_000));
    healthyFolder = (await api('POST', '/api/v3/ImportFolder', { Name: 'Healthy', Path: healthy, DropFolderType: 'None' })).json().ID;
    await api('GET', `/api/v3/ImportFolder/${healthyFolder}/Scan`);
    await server.services.queue.idle();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Everything the folder's files carry, counted. */
  async function records(folderId: number) {
    const db = server.services.db.kysely;
    const files = await db
      .selectFrom('files')
      .innerJoin('file_locations', 'file_locations.file_id', 'files.id')
      .select(['files.id', 'files.ed2k', 'files.size', 'files.is_variation', 'files.is_ignored'])
      .where('file_locations.import_folder_id', '=', folderId)
      .execute();
    const ids = files.map((f) => f.id);
    const ed2ks = files.map((f) => f.ed2k);
    const count = async (query: Promise<Array<{ n: number | string | bigint }>>) => Number((await query)[0]?.n ?? 0);
    return {
      files: files.length,
      hashed: files.filter((f) => f.ed2k).length,
      locations: await count(
        db
          .selectFrom('file_locations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('import_folder_id', '=', folderId)
          .execute(),
      ),
      links: ed2ks.length
        ? await count(
            db
              .selectFrom('file_episode_links')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('ed2k', 'in', ed2ks)
              .execute(),
          )
        : 0,
      manualLinks: ed2ks.length
        ? await count(
            db
              .selectFrom('file_episode_links')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('ed2k', 'in', ed2ks)
              .where('source', '=', 'User')
              .execute(),
          )
        : 0,
      watched: ids.length
        ? await count(
            db
              .selectFrom('user_file_states')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('file_id', 'in', ids)
              .where('watched_at', 'is not', null)
              .execute(),
          )
        : 0,
      releaseChoices: files.filter((f) => f.is_variation || f.is_ignored).length,
    };
  }

  /** A folder of four real video files, watched, imported (hashed) and given links, watch states and release choices. */
  async function importedFolder(name: string) {
    const root = path.join(base, name);
    fs.mkdirSync(path.join(root, 'Show'), { recursive: true });
    const sizes = [40_000, 41_000, 42_000, 43_000];
    sizes.forEach((size, i) => fs.writeFileSync(path.join(root, 'Show', `Episode 0${i + 1}.mkv`), randomBytes(size)));
    const created = await api('POST', '/api/v3/ImportFolder', { Name: name, Path: root, DropFolderType: 'Both', WatchForNewFiles: true });
    expect(created.statusCode).toBe(200);
    const folderId = created.json().ID as number;
    expect(created.json()).toMatchObject({ IsAvailable: true, UnavailableSince: null });
    await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`);
    await server.services.queue.idle();
    await waitFor(async () => watchers().has(folderId), 'the watcher');
    await server.services.watcher.whenWatching();

    const fileIds = (
      await server.services.db.kysely
        .selectFrom('file_locations')
        .select('file_id')
        .where('import_folder_id', '=', folderId)
        .orderBy('relative_path')
        .execute()
    ).map((row) => row.file_id);
    expect(fileIds).toHaveLength(4);
    const animeId = nextEpisode;
    const episodes = [1, 2].map((n) => ({ id: nextEpisode + n, number: n, title: `Episode ${n}` }));
    nextEpisode += 10;
    const seriesId = await seedAnidbAnime(server, { id: animeId, type: 'TV Series', title: `${name} anime`, episodes });
    const shokoEpisodes = (
      await server.services.db.kysely.selectFrom('episodes').select('id').where('series_id', '=', seriesId!).orderBy('id').execute()
    ).map((row) => row.id);
    expect((await api('POST', `/api/v3/File/${fileIds[0]}/Link`, { EpisodeIDs: [shokoEpisodes[0]] })).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/File/${fileIds[1]}/Link`, { EpisodeIDs: [shokoEpisodes[1]] })).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/File/${fileIds[0]}/Watched/true`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/File/${fileIds[2]}/Watched/true`)).statusCode).toBe(200);
    expect((await api('PUT', `/api/v3/File/${fileIds[1]}/Variation?value=true`)).statusCode).toBe(200);
    expect((await api('PUT', `/api/v3/File/${fileIds[3]}/Ignore?value=true`)).statusCode).toBe(200);
    await server.services.queue.idle();
    const before = await records(folderId);
    expect(before).toEqual({ files: 4, hashed: 4, locations: 4, links: 2, manualLinks: 2, watched: 2, releaseChoices: 2 });
    return { root, folderId, fileIds, before };
  }

  /** Every clean-up the server has, run against the offline folder: the scan, Run Import, Remove Missing Files, the renamer. */
  async function runEveryCleanUp(folderId: number, fileIds: number[], folderName: string) {
    expect((await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`)).statusCode).toBe(200);
    expect((await api('GET', '/api/v3/Action/RunImport')).statusCode).toBe(200);
    expect((await api('GET', '/api/v3/Action/ImportNewFiles')).statusCode).toBe(200);
    await server.services.queue.idle();
    for (const route of ['/api/v3/Action/RemoveMissingFiles', '/api/v3/Action/RemoveMissingFiles/false']) {
      const removal = await api('GET', route);
      expect(removal.statusCode).toBe(200);
      expect(removal.body).toMatch(new RegExp(`Skipped offline import folder "${folderName}" .*: its 4 file record\\(s\\) are kept\\.`));
      await server.services.queue.idle();
    }
    const relocation = await api(
      'POST',
      '/api/v3/Renamer/Config/Default/Relocate?move=true&rename=true&deleteEmptyDirectories=true',
      fileIds,
    );
    expect(relocation.statusCode).toBe(200);
    for (const result of relocation.json()) {
      expect(result).toMatchObject({ IsSuccess: false, ErrorMessage: `Not relocating: the import folder "${folderName}" is offline.` });
    }
    const location = (await api('GET', `/api/v3/File/${fileIds[0]}`)).json().Locations[0];
    const direct = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.ID}`, {
      ImportFolderID: folderId,
      RelativePath: 'Elsewhere/moved.mkv',
    });
    expect(direct.json()).toMatchObject({
      IsSuccess: false,
      ErrorMessage: `Not relocating: the import folder "${folderName}" is offline.`,
    });
    const autoRemove = (await api('GET', '/api/v3/ReleaseManagement/DuplicateFiles/FileLocationsToAutoRemove')).json() as Array<{
      FileLocationIDs: number[];
    }>;
    expect(autoRemove.flatMap((entry) => entry.FileLocationIDs)).not.toContain(location.ID);
    const deletion = await api('DELETE', `/api/v3/File/${fileIds[0]}?removeFiles=true`);
    expect(deletion.statusCode).toBe(400);
    expect(deletion.body).toMatch(/is offline/);
    // A batch that reaches an offline file is refused before anything is deleted, even files listed before it.
    const keptFile = await server.services.db.kysely
      .selectFrom('file_locations')
      .select('file_id')
      .where('import_folder_id', '=', healthyFolder)
      .where('relative_path', 'like', '%kept.mkv')
      .executeTakeFirstOrThrow();
    const batch = await api('DELETE', '/api/v3/File', { fileIDs: [keptFile.file_id, fileIds[0]], removeFiles: true });
    expect(batch.statusCode).toBe(400);
    expect(fs.existsSync(path.join(base, 'healthy', 'kept.mkv'))).toBe(true);
    expect((await api('GET', `/api/v3/File/${keptFile.file_id}`)).statusCode).toBe(200);
    await server.services.queue.idle();
    await server.services.watcher.whenIdle();
  }

  /**
   * With duplicates deleted on import, a copy of an offline file found elsewhere is kept: the offline copy may never
   * come back. The drive is briefly back to read the content, then away again.
   */
  async function copyOfOfflineFileIsKept(bringBack: () => void, root: string) {
    bringBack();
    const copy = path.join(base, 'healthy', 'copy of episode 01.mkv');
    fs.copyFileSync(path.join(root, 'Show', 'Episode 01.mkv'), copy);
    FAULTS[0].takeAway(root);
    await advanceTimer();
    await server.services.settings.update((settings) => {
      settings.Import.AutomaticallyDeleteDuplicatesOnImport = true;
    });
    try {
      await api('GET', `/api/v3/ImportFolder/${healthyFolder}/Scan`);
      await server.services.queue.idle();
    } finally {
      await server.services.settings.update((settings) => {
        settings.Import.AutomaticallyDeleteDuplicatesOnImport = false;
      });
    }
    expect(fs.existsSync(copy)).toBe(true);
    const copyLocation = await server.services.db.kysely
      .selectFrom('file_locations')
      .select('file_id')
      .where('import_folder_id', '=', healthyFolder)
      .where('relative_path', '=', 'copy of episode 01.mkv')
      .executeTakeFirstOrThrow();
    const offlineLocation = await server.services.db.kysely
      .selectFrom('file_locations')
      .select('file_id')
      .where('relative_path', '=', path.join('Show', 'Episode 01.mkv'))
      .where('import_folder_id', '<>', healthyFolder)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // The copy joined the offline file's record as a second location.
    expect(copyLocation.file_id).toBe(offlineLocation.file_id);
    // The copy goes again; Remove Missing Files forgets its location (its folder is available), not the offline one.
    fs.rmSync(copy);
    await api('GET', '/api/v3/Action/RemoveMissingFiles/false');
    await server.services.queue.idle();
    expect((await api('GET', `/api/v3/File/${copyLocation.file_id}`)).json().Locations).toHaveLength(1);
  }

  for (const [index, fault] of FAULTS.entries()) {
    it(`${fault.name}: skipped by every clean-up, reported offline, back by itself`, async () => {
      const name = `Drive ${index + 1}`;
      const { root, folderId, fileIds, before } = await importedFolder(name);
      events.length = 0;

      const bringBack = fault.takeAway(root);
      // The watcher sees files vanish; the periodic check (its timer advanced here) finds the folder offline.
      await server.services.watcher.whenIdle();
      await advanceTimer();
      await server.services.watcher.whenIdle();

      const folder = (await api('GET', `/api/v3/ImportFolder/${folderId}`)).json();
      expect(folder).toMatchObject({ IsAvailable: false, UnavailableReason: expect.stringMatching(fault.reason) });
      expect(Date.parse(folder.UnavailableSince)).not.toBeNaN();
      expect(events).toContainEqual({
        event: 'ImportFolderAvailabilityChanged',
        payload: expect.objectContaining({ ImportFolderID: folderId, IsAvailable: false, FileCount: 4 }),
      });
      await waitFor(async () => !watchers().has(folderId), 'the watcher to let go of the offline folder');
      for (const fileId of fileIds) {
        const file = (await api('GET', `/api/v3/File/${fileId}`)).json();
        expect(file.Locations.map((l: { IsAccessible: boolean }) => l.IsAccessible)).toEqual([false]);
      }

      await runEveryCleanUp(folderId, fileIds, name);
      if (index === 0) await copyOfOfflineFileIsKept(bringBack, root);
      expect(await records(folderId)).toEqual(before);
      // The healthy folder was not skipped: its deleted file is forgotten, the other kept.
      const healthy = (await api('GET', `/api/v3/ImportFolder/${healthyFolder}`)).json();
      expect(healthy.IsAvailable).toBe(true);

      bringBack();
      await advanceTimer();
      expect((await api('GET', `/api/v3/ImportFolder/${folderId}`)).json()).toMatchObject({
        IsAvailable: true,
        UnavailableSince: null,
        UnavailableReason: null,
      });
      await server.services.queue.idle();
      await waitFor(async () => watchers().has(folderId), 'the watcher to attach again');
      await server.services.watcher.whenWatching();
      expect(await records(folderId)).toEqual(before);
      for (const fileId of fileIds) {
        const file = (await api('GET', `/api/v3/File/${fileId}`)).json();
        expect(file.Locations.map((l: { IsAccessible: boolean }) => l.IsAccessible)).toEqual([true]);
      }

      // New files are imported again, by the watcher.
      fs.writeFileSync(path.join(root, 'Show', 'Episode 05.mkv'), randomBytes(44_000));
      await waitFor(async () => (await records(folderId)).hashed === 5, 'the new file to be hashed', 30_000);
      expect(await records(folderId)).toEqual({ ...before, files: 5, hashed: 5, locations: 5 });
    }, 90_000);
  }

  it('Remove Missing Files still forgets files really gone from an available folder', async () => {
    fs.rmSync(path.join(base, 'healthy', 'deleted.mkv'));
    const removal = await api('GET', '/api/v3/Action/RemoveMissingFiles/false');
    expect([removal.statusCode, removal.body]).toEqual([200, '']);
    await server.services.queue.idle();
    const left = (await records(healthyFolder)).locations;
    expect(left).toBe(1);
  });

  it('removes the records of an offline folder only when an admin confirms their number', async () => {
    const { root, folderId } = await importedFolder('Old Drive');
    fs.renameSync(root, `${root}.gone`);
    await advanceTimer();

    const preview = await api('GET', `/api/v3/ImportFolder/${folderId}/OfflineRecords`);
    expect(preview.json()).toEqual({ ImportFolderID: folderId, IsAvailable: false, Locations: 4, Files: 4 });
    const stale = await api('DELETE', `/api/v3/ImportFolder/${folderId}/OfflineRecords?locationCount=3`);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errors.locationCount[0]).toMatch(/holds 4 file record\(s\), not 3/);
    expect((await records(folderId)).locations).toBe(4);

    const removed = await api('DELETE', `/api/v3/ImportFolder/${folderId}/OfflineRecords?locationCount=4`);
    expect(removed.json()).toEqual({ Locations: 4, Files: 4 });
    expect(await records(folderId)).toMatchObject({ files: 0, locations: 0 });
    // The folder itself stays; with nothing recorded in it and its root still gone it stays offline.
    expect((await api('GET', `/api/v3/ImportFolder/${folderId}`)).json().IsAvailable).toBe(false);

    // An available folder's records are not removed this way.
    const healthy = await api('DELETE', `/api/v3/ImportFolder/${healthyFolder}/OfflineRecords?locationCount=1`);
    expect(healthy.statusCode).toBe(400);
    expect(healthy.body).toMatch(/is available/);
  });
});
