import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedFileRecords, seedImportFolder } from '../../test/seed-files.js';

/** More files than SQLite binds values in one statement: the list must page in SQL, not load everything. */
describe('the file list of a large collection', () => {
  const FILES = 40_000;
  let server: TestServer;
  let key: string;
  // A real folder with an entry: the periodic availability check would mark a missing one offline mid-test, and the
  // locations' IsAccessible would change between the whole list and its pages.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'files-scale-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(root, 'present.mkv'), '');
    server = await createTestServer();
    key = await completeFirstRun(server);
    const folder = await seedImportFolder(server, 'Big', `${root}/`);
    for (let i = 0; i < FILES; i += 1000) {
      await seedFileRecords(
        server,
        Array.from({ length: 1000 }, (_, j) => ({
          size: 1000 + i + j,
          ed2k: (i + j).toString(16).padStart(32, '0').toUpperCase(),
          ignored: (i + j) % 1000 === 0,
          location: { importFolderId: folder, relativePath: `Show ${(i + j) % 400}/Episode_${i + j}.mkv` },
        })),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const list = async (query: string) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/File?${query}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json() as { Total: number; List: Array<{ ID: number; Size: number; Locations: Array<{ RelativePath: string }> }> };
  };

  it('pages the unrecognized files in the default order', async () => {
    const first = await list('pageSize=200&include_only=Unrecognized');
    expect(first.Total).toBe(FILES - FILES / 1000);
    expect(first.List).toHaveLength(200);
    const paths = first.List.map((f) => f.Locations[0].RelativePath.toLowerCase());
    expect([...paths].sort()).toEqual(paths);
    const third = await list('pageSize=200&page=3&include_only=Unrecognized');
    expect(third.List[0].ID).not.toBe(first.List[0].ID);
  });

  it('sorts by size descending and searches paths with _ as a space', async () => {
    expect((await list('pageSize=1&sortOrder=-FileSize&include=Ignored')).List[0].Size).toBe(1000 + FILES - 1);
    const byName = await list('pageSize=2&sortOrder=FileName');
    expect(byName.List.map((f) => f.Locations[0].RelativePath)).toEqual(['Show 1/Episode_1.mkv', 'Show 10/Episode_10.mkv']);
    const search = await server.request({ method: 'GET', url: '/api/v3/File/Search/episode%2039999', key });
    expect(search.json().Total).toBe(1);
    expect((await list('pageSize=0&include_only=Ignored')).Total).toBe(FILES / 1000);
  });

  it('sends the whole list in slices, byte for byte the pages it is made of', async () => {
    const query = 'include=AbsolutePaths&sortOrder=-FileSize';
    const whole = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=0&${query}`, key });
    expect(whole.statusCode, whole.body.slice(0, 300)).toBe(200);
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(whole.headers['content-length'], 'a whole list of many slices is streamed').toBeUndefined();
    const pages: string[] = [];
    for (let page = 1; page <= FILES / 1000; page++) {
      const res = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=1000&page=${page}&${query}`, key });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-length']).toBeDefined();
      pages.push(res.body.slice(res.body.indexOf('"List":[') + '"List":['.length, -2));
    }
    const total = FILES - FILES / 1000;
    expect(whole.body).toBe(`{"Total":${total},"List":[${pages.join(',')}]}`);
    const list = (JSON.parse(whole.body) as { List: Array<{ Size: number; Locations: Array<{ AbsolutePath?: string }> }> }).List;
    expect(list).toHaveLength(total);
    expect(list[0].Size).toBe(1000 + FILES - 1);
    expect(list[0].Locations[0].AbsolutePath).toMatch(/Episode_39999\.mkv$/);
  });
});
