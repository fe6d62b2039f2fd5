import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShokoDataFolder, type ShokoDataFolderManifest } from '@shoko-ts/fakes/shoko-data';
import { startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { anidbStrictRules, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { createTestServer, login, setEnv, type TestServer } from '../../test/harness.js';

const SCALE = 0.05;

/**
 * After moving from Shoko the server knows what Shoko knew: against the strict AniDB fakes (with the AniDB account of
 * Shoko's settings), a scan of every import folder, the scheduled metadata check and the pages a user opens send no UDP
 * FILE for a file AniDB already identified and no HTTP request for an anime in Shoko's database or XML cache (one anime
 * is taken out of the database, so only its XML knows it: without the XML its linked files would have it downloaded).
 */
describe('ShokoImport: no AniDB request for what Shoko knew', () => {
  let root: string;
  let manifest: ShokoDataFolderManifest;
  let server: TestServer;
  let udp: FakeAniDBUdp;
  let http: FakeAniDBHttp;
  let restoreEnv: () => void;
  let key: string;
  let onlyInXml: number;

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-import-anidb-')));
    manifest = await writeShokoDataFolder(path.join(root, 'shoko'), { size: 'small', mediaRoot: path.join(root, 'media') });
    // One anime whose rows Shoko's tables lost while its XML cache kept it: the import reads it from the XML.
    onlyInXml = manifest.anime.find((a) => a.animeDocXml && manifest.series.some((s) => s.animeId === a.id))!.id;
    const shoko = new Database(manifest.databasePath);
    shoko.prepare('DELETE FROM AniDB_Anime WHERE AnimeID = ?').run(onlyInXml);
    shoko.close();
    udp = await startFakeAniDBUdp({
      users: { [manifest.settings.aniDbUsername]: manifest.settings.aniDbPassword },
      strict: anidbStrictRules('udp', SCALE),
    });
    http = await startFakeAniDBHttp({ anime: {}, strict: anidbStrictRules('http', SCALE) });
    restoreEnv = setEnv({
      SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
      SHOKO_ANIDB_HTTP: http.url,
      SHOKO_ANIDB_LOOPBACK_PACING: String(SCALE),
      SHOKO_ANIDB_TITLES_URL: 'http://127.0.0.1:9/anime-titles.xml.gz',
      SHOKO_ANIDB_IMAGE_URL: 'http://127.0.0.1:9',
    });
    server = await createTestServer();
    await server.services.shokoImport.run({ Folder: manifest.dir }, { dryRun: false });
    server.services.init.startServer();
    await server.services.init.waitForStartup();
    const admin = manifest.users.find((u) => u.isAdmin)!;
    key = await login(server, admin.name, admin.password);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await udp?.close();
    await http?.close();
    restoreEnv?.();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('scans, the scheduled check and browsing ask AniDB nothing it answered Shoko already', async () => {
    for (const folder of manifest.importFolders) {
      const scan = await server.request({ method: 'GET', url: `/api/v3/ImportFolder/${folder.id}/Scan`, key });
      expect(scan.statusCode, scan.body).toBe(200);
    }
    await server.services.queue.idle();
    await server.services.metadata.scheduler.check();
    await server.services.queue.idle();
    for (const series of manifest.series)
      expect((await server.request({ method: 'GET', url: `/api/v3/Series/${series.id}?includeDataFrom=AniDB`, key })).statusCode).toBe(200);
    await server.services.queue.idle();

    const identified = manifest.files.filter((f) => f.anidbFileId !== null);
    expect(identified.length).toBeGreaterThan(0);
    const fileCommands = udp.received.filter((packet) => /^FILE /.test(packet));
    for (const file of identified)
      expect(fileCommands.filter((c) => c.includes(`ed2k=${file.ed2k.toLowerCase()}`) || c.includes(`ed2k=${file.ed2k}`))).toEqual([]);
    const animeRequests = http.requests.filter((r) => /request=anime\b/.test(r));
    const known = new Set(manifest.anime.map((a) => a.id));
    expect(animeRequests.filter((r) => known.has(Number(/aid=(\d+)/.exec(r)?.[1])))).toEqual([]);
    const fromXml = manifest.series.find((s) => s.animeId === onlyInXml)!;
    expect((await server.request({ method: 'GET', url: `/api/v3/Series/${fromXml.id}`, key })).json().IDs.AniDB).toBe(onlyInXml);
    expect(udp.strict!.bans).toEqual([]);
    expect(http.strict!.bans).toEqual([]);
    // Nothing was hashed again: no job of the queue read a file's content.
    const files = await server.services.db.kysely.selectFrom('files').select(['id', 'ed2k']).execute();
    expect(files.map((f) => f.ed2k).sort()).toEqual(manifest.files.map((f) => f.ed2k).sort());
  }, 120_000);
});
