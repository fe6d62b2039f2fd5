import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeShokoDataFolder, type ShokoDataFolderManifest } from '@shoko-ts/fakes/shoko-data';
import { setEnv } from '../test/harness.js';
import { main, parsePathMaps } from './import-shoko.js';

/**
 * `npm run import-shoko`: into the SQLite database of SHOKO_HOME exactly as the server would open it, with the report on
 * standard output (JSON with --json) and exit code 1 when nothing was imported or the import was refused. A Shoko 5.0
 * folder (schema 125, the older shapes of its character and staff tables) imports too.
 */
describe('npm run import-shoko', () => {
  let root: string;
  let manifest: ShokoDataFolderManifest;
  let restoreEnv: () => void;
  const output: string[] = [];

  const run = async (home: string, args: string[]) => {
    output.length = 0;
    const restoreHome = setEnv({ SHOKO_HOME: home });
    const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void output.push(text));
    const error = vi.spyOn(console, 'error').mockImplementation((text: string) => void output.push(text));
    try {
      return await main(args);
    } finally {
      log.mockRestore();
      error.mockRestore();
      restoreHome();
    }
  };

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-cli-')));
    manifest = await writeShokoDataFolder(path.join(root, 'shoko-5.0'), {
      size: 'small',
      mediaRoot: path.join(root, 'media'),
      schemaVersion: 125,
      shokoMediaRoot: 'D:\\Anime\\',
    });
    // A playlist of Shoko's desktop client: nothing here keeps it, the report must say so.
    const shoko = new Database(manifest.databasePath);
    shoko
      .prepare('INSERT INTO Playlist (PlaylistName, PlaylistItems, DefaultPlayOrder, PlayWatched, PlayUnwatched) VALUES (?, ?, 0, 1, 1)')
      .run('Rewatch list', '1|2');
    shoko.close();
    restoreEnv = setEnv({ SHOKO_DB: '' });
  }, 60_000);

  afterAll(() => {
    restoreEnv?.();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('parses path maps and refuses a malformed one', () => {
    expect(parsePathMaps(['D:\\Anime\\=/srv/anime/'])).toEqual([{ From: 'D:\\Anime\\', To: '/srv/anime/' }]);
    expect(() => parsePathMaps(['/srv/anime'])).toThrow(/FROM=TO/);
  });

  it('refuses without a path map for the Windows folders, writing nothing; a dry run with it shows what would come', async () => {
    const home = path.join(root, 'home-refused');
    expect(await run(home, ['--from', manifest.dir])).toBe(1);
    expect(output.join('\n')).toMatch(/D:\\Anime.*path map/);
    const db = new Database(path.join(home, 'SQLite', 'shoko.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 0 });
    db.close();

    const map = `D:\\Anime\\=${path.join(root, 'media')}`;
    expect(await run(home, ['--from', manifest.dir, '--map-path', map, '--dry-run', '--json'])).toBe(0);
    const report = JSON.parse(output.join('\n'));
    expect(report).toMatchObject({ DryRun: true, SchemaVersion: 125, Blockers: [] });
  });

  it('imports a Shoko 5.0 folder and prints the report, kept in the data folder', async () => {
    const home = path.join(root, 'home');
    const map = `D:\\Anime\\=${path.join(root, 'media')}`;
    expect(await run(home, ['--from', manifest.dir, '--map-path', map])).toBe(0);
    const text = output.join('\n');
    expect(text).toMatch(/^Users\s+3\s+3\s+0$/m);
    expect(text).toMatch(/This report is kept as .*report-.*\.json/);
    expect(text).toMatch(/Playlists \(desktop client\): 1 — this server has no playlists \(e\.g\. Rewatch list\)/);
    const db = new Database(path.join(home, 'SQLite', 'shoko.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM anidb_characters').get()).toEqual({ n: manifest.rowCounts.AniDB_Character });
    expect(db.prepare("SELECT COUNT(*) AS n FROM anidb_anime_staff WHERE role = 'Seiyuu'").get()).toMatchObject({ n: expect.any(Number) });
    const folders = db.prepare('SELECT path FROM import_folders ORDER BY id').all() as Array<{ path: string }>;
    for (const folder of folders) expect(folder.path.startsWith(path.join(root, 'media'))).toBe(true);
    db.close();
    // A second import into the same, now full, database is refused.
    expect(await run(home, ['--from', manifest.dir, '--map-path', map])).toBe(1);
    expect(output.join('\n')).toMatch(/empty database/);
  });
});
