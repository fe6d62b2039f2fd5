import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../events/bus.js';
import { FolderAvailability, probeFolder, type ProbeFs } from './folder-availability.js';
import type { FolderAvailabilityValues, ImportFolderRow, ImportFoldersStore } from './import-folders.store.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-availability-'));
  temporary.push(dir);
  return dir;
};

/** A filesystem where the test decides each path's device, as a mount would. */
function mountedFs(devices: Record<string, number>, entries: Record<string, boolean>): ProbeFs {
  return {
    async stat(target) {
      if (!(target in devices)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return { dev: devices[target], isDirectory: () => true };
    },
    async hasEntries(directory) {
      return entries[directory] ?? false;
    },
  };
}

describe('probeFolder', () => {
  it('finds a folder with files, or without any when none were recorded, available', async () => {
    const dir = tempDir();
    expect(await probeFolder(dir + path.sep, { files: 0, device: null })).toMatchObject({ available: true, hasEntries: false });
    fs.writeFileSync(path.join(dir, 'a.mkv'), 'x');
    const probe = await probeFolder(dir + path.sep, { files: 1, device: null });
    expect(probe).toMatchObject({ available: true, hasEntries: true, reason: null });
    expect(probe.device).toBe(String(fs.statSync(dir).dev));
  });

  it('finds a missing root, a file for a root and an empty folder where files were recorded unavailable', async () => {
    const dir = tempDir();
    const gone = await probeFolder(path.join(dir, 'nas') + path.sep, { files: 3, device: null });
    expect(gone.available).toBe(false);
    expect(gone.reason).toMatch(/does not exist/);
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    expect((await probeFolder(path.join(dir, 'file'), { files: 0, device: null })).reason).toMatch(/is not a folder/);
    const empty = await probeFolder(dir + path.sep, { files: 0, device: null });
    expect(empty.available).toBe(true);
    fs.rmSync(path.join(dir, 'file'));
    const emptied = await probeFolder(dir + path.sep, { files: 3, device: null });
    expect(emptied.available).toBe(false);
    expect(emptied.reason).toMatch(/is empty, but 3 file\(s\) were recorded/);
  });

  it('finds a folder that fell back onto its parent’s filesystem unavailable, and one on another drive available', async () => {
    // Mounted: /mnt/nas on device 7 under / on device 1. Unmounted but with stray files: /mnt/nas on device 1.
    const unmounted = mountedFs({ '/mnt/nas': 1, '/mnt': 1 }, { '/mnt/nas': true });
    const probe = await probeFolder('/mnt/nas/', { files: 5, device: '7' }, unmounted);
    expect(probe.available).toBe(false);
    expect(probe.reason).toMatch(/filesystem of its parent folder/);
    const otherDrive = mountedFs({ '/mnt/nas': 9, '/mnt': 1 }, { '/mnt/nas': true });
    expect((await probeFolder('/mnt/nas/', { files: 5, device: '7' }, otherDrive)).available).toBe(true);
    const mounted = mountedFs({ '/mnt/nas': 7, '/mnt': 1 }, { '/mnt/nas': true });
    expect((await probeFolder('/mnt/nas/', { files: 5, device: '7' }, mounted)).available).toBe(true);
  });

  it('reads permission errors as an unreadable folder', async () => {
    const denied: ProbeFs = {
      stat: async () => ({ dev: 1, isDirectory: () => true }),
      hasEntries: async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' });
      },
    };
    expect((await probeFolder('/srv/x/', { files: 1, device: null }, denied)).reason).toMatch(/permission denied/);
  });
});

/** The folder rows of a store, in memory. */
function memoryStore(rows: ImportFolderRow[], counts: Map<number, number>): ImportFoldersStore {
  return {
    list: async () => rows.map((row) => ({ ...row })),
    get: async (id: number) => ({ ...rows.find((row) => row.id === id)! }),
    locationCount: async (id: number) => counts.get(id) ?? 0,
    setAvailability: async (id: number, values: FolderAvailabilityValues) => {
      Object.assign(
        rows.find((row) => row.id === id)!,
        values,
      );
    },
    setDevice: async (id: number, device: string) => {
      rows.find((row) => row.id === id)!.device_id = device;
    },
  } as unknown as ImportFoldersStore;
}

describe('FolderAvailability', () => {
  it('checks on its timer, stores and announces each change once, and keeps the time the folder went', async () => {
    const dir = tempDir();
    const media = path.join(dir, 'media');
    fs.mkdirSync(media);
    fs.writeFileSync(path.join(media, 'a.mkv'), 'x');
    const row: ImportFolderRow = {
      id: 1,
      name: 'NAS',
      path: media + path.sep,
      is_drop_source: 0,
      is_drop_destination: 0,
      watch_for_new_files: 0,
      is_available: 1,
      unavailable_since: null,
      unavailable_reason: null,
      device_id: null,
    };
    const bus = new EventBus();
    const announced: unknown[] = [];
    bus.on('shoko', (event) => announced.push(event));
    let tick: (() => void) | null = null;
    let clock = new Date('2026-01-01T10:00:00Z');
    const availability = new FolderAvailability({
      store: memoryStore([row], new Map([[1, 1]])),
      bus,
      logger: pino({ level: 'silent' }),
      timer: (run) => {
        tick = run;
        return () => (tick = null);
      },
      now: () => clock,
    });
    const changes: boolean[] = [];
    availability.onChange((change) => changes.push(change.available));
    availability.start();

    tick!();
    await availability.checkAll();
    expect(row.device_id).toBe(String(fs.statSync(media).dev));
    expect(changes).toEqual([]);

    fs.renameSync(media, `${media}.away`);
    tick!();
    await availability.checkAll();
    clock = new Date('2026-01-01T10:05:00Z');
    await availability.checkAll();
    expect(row).toMatchObject({ is_available: 0, unavailable_since: '2026-01-01T10:00:00.000Z' });
    expect(changes).toEqual([false]);

    fs.renameSync(`${media}.away`, media);
    tick!();
    await availability.checkAll();
    expect(row).toMatchObject({ is_available: 1, unavailable_since: null, unavailable_reason: null });
    expect(changes).toEqual([false, true]);
    expect(announced).toEqual([
      {
        event: 'ImportFolderAvailabilityChanged',
        payload: expect.objectContaining({
          ImportFolderID: 1,
          IsAvailable: false,
          UnavailableSince: '2026-01-01T10:00:00.000Z',
          FileCount: 1,
        }),
      },
      { event: 'ImportFolderAvailabilityChanged', payload: expect.objectContaining({ ImportFolderID: 1, IsAvailable: true }) },
    ]);
    availability.stop();
    expect(tick).toBeNull();
  });
});
