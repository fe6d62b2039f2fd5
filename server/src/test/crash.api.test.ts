import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFreshServer, type ServerProcess } from './server-process.js';

/**
 * Power cuts: the server process is SIGKILLed in the middle of work and started again on the same data. Afterwards
 * every file is on disk and in the database exactly once, every queued job has finished, and the settings are valid.
 */

interface FileList {
  Total: number;
  List: Array<{ ID: number; Size: number; Hashes: { ED2K: string }; Locations: Array<{ RelativePath: string }> }>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const startedServer = () => startFreshServer(cleanups, 'shoko-crash-');

function mediaFolder(files: Array<[string, number]>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-crash-media-')));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [relative, size] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), randomBytes(size));
  }
  return dir;
}

async function queueTotal(server: ServerProcess, key: string): Promise<number> {
  return (await server.json<{ TotalCount: number }>('GET', '/api/v3/Queue', { key })).TotalCount;
}

/** Restarts after the kill and waits until the queue is empty again. */
async function restartAndDrain(server: ServerProcess): Promise<string> {
  await server.start();
  await server.waitForStarted();
  const key = await server.login();
  await server.waitFor('the queue to finish', async () => (await queueTotal(server, key)) === 0, 240_000);
  return key;
}

async function expectEachFileOnce(server: ServerProcess, key: string, media: string, expected: number) {
  const files = await server.json<FileList>('GET', '/api/v3/File?pageSize=0&include=Ignored', { key });
  const paths = files.List.flatMap((f) => f.Locations.map((l) => l.RelativePath));
  expect(files.Total).toBe(expected);
  expect(new Set(paths).size).toBe(paths.length);
  expect(paths.length).toBe(expected);
  expect(files.List.every((f) => /^[0-9A-F]{32}$/.test(f.Hashes.ED2K))).toBe(true);
  for (const relative of paths) expect(fs.existsSync(path.join(media, relative)), relative).toBe(true);
}

describe('crash safety', () => {
  it('finishes a scan of 300 files that was killed half way, with every file recorded once', async () => {
    const names: Array<[string, number]> = Array.from({ length: 300 }, (_, i) => [
      `Show ${i % 40}/Season ${i % 3}/Episode ${i}.mkv`,
      64 + (i % 50),
    ]);
    const media = mediaFolder(names);
    const { server, key } = await startedServer();
    const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', { key, body: { Name: 'Crash', Path: media } });
    await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
    // Kill once some files are recorded but the work is far from done.
    await server.waitFor(
      'the scan to get going',
      async () => (await server.json<FileList>('GET', '/api/v3/File?pageSize=1', { key })).Total > 50,
      60_000,
    );
    await server.kill();

    const after = await restartAndDrain(server);
    await expectEachFileOnce(server, after, media, 300);
  }, 300_000);

  it('hashes again what was being hashed when the process died', async () => {
    const media = mediaFolder([
      ['big-a.mkv', 96 * 1024 * 1024],
      ['big-b.mkv', 96 * 1024 * 1024],
      ['small.mkv', 4096],
    ]);
    const { server, key } = await startedServer();
    const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', { key, body: { Name: 'Crash', Path: media } });
    await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
    await server.waitFor(
      'a hash job to run',
      async () =>
        (
          await server.json<{ List?: Array<{ Type: string; IsRunning: boolean }> }>(
            'GET',
            '/api/v3/Queue/Items?pageSize=100&showAll=true',
            { key },
          )
        ).List?.some((i) => i.IsRunning && /hash/i.test(i.Type)) ?? false,
      60_000,
    );
    await server.kill();

    const after = await restartAndDrain(server);
    await expectEachFileOnce(server, after, media, 3);
  }, 300_000);

  // The settings file does not live in the database: once, on SQLite, is enough.
  it.skipIf(!!process.env.SHOKO_TEST_DB)(
    'keeps a valid settings file when killed while saving settings',
    async () => {
      const { server, home, key } = await startedServer();
      const extensionsOf = (i: number) => ['MKV', 'MP4', `X${i}`];
      // Shoko's rules want AniDB credentials in every saved settings.
      const patch = (i: number) => [
        { op: 'replace', path: '/AniDb/Username', value: 'someone' },
        { op: 'replace', path: '/AniDb/Password', value: 'secret' },
        { op: 'replace', path: '/Import/VideoExtensions', value: extensionsOf(i) },
      ];
      // The first save completes; the process is killed while the next ones are in flight.
      const first = await server.fetch('PATCH', '/api/v3/Settings', { key, body: patch(0) });
      expect(first.status, await first.clone().text()).toBe(200);
      const saves = Array.from({ length: 20 }, (_, i) =>
        server.fetch('PATCH', '/api/v3/Settings', { key, body: patch(i + 1) }).catch(() => null),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
      await server.kill();
      await Promise.all(saves);

      const file = path.join(home, 'settings-server.json');
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { Import: { VideoExtensions: string[] } };
      const written = saved.Import.VideoExtensions.map((e) => e.toUpperCase());
      expect(Array.from({ length: 21 }, (_, i) => extensionsOf(i).join())).toContain(written.join());
      await server.start();
      await server.waitForStarted();
      // A save cut short leaves a temporary file; the next start removes it.
      expect(fs.readdirSync(home).filter((name) => name.startsWith('settings-server.json') && name !== 'settings-server.json')).toEqual([]);
      const settings = await server.json<{ Import: { VideoExtensions: string[] } }>('GET', '/api/v3/Settings', {
        key: await server.login(),
      });
      expect(settings.Import.VideoExtensions).toEqual(saved.Import.VideoExtensions);
    },
    120_000,
  );
});
