import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedLibrary, TEST_SCRIPT } from './renamer-fixtures.store.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FILES = 200;

function startChild(server: TestServer): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/test/relocation-crash.child.ts'], {
    cwd: serverRoot,
    env: { ...process.env, SHOKO_HOME: server.home, SHOKO_DB: server.databaseUrl ?? '', STEP_PAUSE_MS: '4' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let errors = '';
    child.stderr!.on('data', (chunk) => (errors += String(chunk)));
    child.stdout!.on('data', (chunk) => {
      const match = /listening (\d+)/.exec(String(chunk));
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code}: ${errors}`)));
  });
}

const videosIn = (root: string) =>
  (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile() && e.name.endsWith('.mkv'))
    .map((e) => path.join(e.parentPath, e.name));

describe('relocation journal under SIGKILL', () => {
  let server: TestServer | null = null;
  let child: ChildProcess | null = null;
  afterEach(async () => {
    child?.kill('SIGKILL');
    await server?.close();
  });

  it('finds every file exactly once, where the database says, after a kill in the middle of a 200-file batch', async () => {
    server = await createTestServer();
    const key = await completeFirstRun(server);
    const sidecarsFor = Array.from({ length: FILES }, (_, i) => i).filter((i) => i % 10 === 0);
    const library = await seedLibrary(server.services.db.kysely, path.join(server.home, 'library'), { count: FILES, sidecarsFor });
    const res = await server.request({
      method: 'PUT',
      url: '/api/v3/Renamer/Config/Default',
      key,
      body: { RenamerID: 'WebAOM', Name: 'Default', Settings: [{ Name: 'Script', Value: TEST_SCRIPT }] },
    });
    expect(res.statusCode).toBe(200);
    await server.close({ keepData: true });

    const started = await startChild(server);
    child = started.child;
    const request = fetch(`http://127.0.0.1:${started.port}/api/v3/Renamer/Config/Default/Relocate?move=true&rename=true`, {
      method: 'POST',
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify(library.fileIds),
    }).catch(() => null);
    // Kill once a quarter of the batch is on its way.
    const destination = library.destination.path;
    while (!fs.existsSync(path.join(destination, 'Renamer Test Anime')) || videosIn(destination).length < FILES / 4) {
      if (child.exitCode !== null) throw new Error('the server exited before it was killed');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;
    expect(await request).toBeNull();

    server = await createTestServer({ restartOf: server });
    const db = server.services.db.kysely;
    expect(await db.selectFrom('relocation_journal').select('id').where('state', 'in', ['planned', 'moved']).execute()).toEqual([]);
    const locations = await db
      .selectFrom('file_locations')
      .select(['file_id', 'import_folder_id', 'relative_path'])
      .orderBy('file_id')
      .execute();
    expect(locations).toHaveLength(FILES);
    const root = (folderId: number) => (folderId === library.source.id ? library.source.path : destination);
    const recorded = new Set(locations.map((l) => path.join(root(l.import_folder_id), l.relative_path)));
    const onDisk = [...videosIn(library.source.path), ...videosIn(destination)];
    expect(onDisk).toHaveLength(FILES);
    expect(new Set(onDisk)).toEqual(recorded);
    const moved = locations.filter((l) => l.import_folder_id === library.destination.id).length;
    expect(moved).toBeGreaterThanOrEqual(FILES / 4);
    expect(moved).toBeLessThan(FILES);
    // Sidecars sit next to their video, under its current name.
    for (const [index, fileId] of library.fileIds.entries()) {
      if (!sidecarsFor.includes(index)) continue;
      const location = locations.find((l) => l.file_id === fileId)!;
      const video = path.join(root(location.import_folder_id), location.relative_path);
      expect(fs.existsSync(video.replace(/\.mkv$/, '.ass')), video).toBe(true);
      expect(fs.existsSync(video.replace(/\.mkv$/, '.en.srt')), video).toBe(true);
    }
  }, 120_000);
});
