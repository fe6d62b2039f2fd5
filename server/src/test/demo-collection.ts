import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { startFakeAniDBHttp, type FakeAniDBHttp } from '../../../fakes/src/anidb-http/index.js';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../fakes/src/anidb-udp/index.js';
import { startFakeAniDBTitles, type FakeAniDBTitles } from '../../../fakes/src/anidb-titles/index.js';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../fakes/src/anidb-images/index.js';
import { writeDemoLibrary, type DemoLibrary } from '../../../fakes/src/demo/library.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from './harness.js';

/** The local account the replayed clients log in with. */
export const CLIENT_USER = { user: 'Default', pass: 'first-run-pass' };
const ANIDB_ACCOUNT = { username: 'kiri-tester', password: 'fog-and-letters' };

/**
 * The demo collection (fakes/src/demo) imported into a test server: the same invented files, AniDB fakes and first
 * run as `npm run demo`, but in-process so the suites also run on PostgreSQL.
 */
export interface DemoCollection {
  server: TestServer;
  /** Absolute path of the import folder (the demo library). */
  library: string;
  importFolderId: number;
  demo: DemoLibrary;
  /** Shoko series id by AniDB anime id. */
  seriesByAnime: Map<number, number>;
  /** Shoko file id by relative path (forward slashes) inside the library. */
  fileByPath: Map<string, number>;
  close(): Promise<void>;
}

export async function startDemoCollection(): Promise<DemoCollection> {
  const library = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-conformance-'));
  const demo = await writeDemoLibrary(library);
  let udp: FakeAniDBUdp | null = null;
  let anidbHttp: FakeAniDBHttp | null = null;
  let titles: FakeAniDBTitles | null = null;
  let images: FakeAniDBImages | null = null;
  let server: TestServer | null = null;
  let restoreEnv = () => {};
  const close = async () => {
    await server?.close();
    await udp?.close();
    await anidbHttp?.close();
    await titles?.close();
    await images?.close();
    restoreEnv();
    fs.rmSync(library, { recursive: true, force: true });
  };
  try {
    udp = await startFakeAniDBUdp({
      users: { [ANIDB_ACCOUNT.username]: ANIDB_ACCOUNT.password },
      commands: fileCommands(demo.files, demo.groups),
    });
    anidbHttp = await startFakeAniDBHttp({ anime: demo.anime });
    titles = await startFakeAniDBTitles({ anime: demo.titles });
    images = await startFakeAniDBImages();
    restoreEnv = setEnv({
      SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
      SHOKO_ANIDB_HTTP: anidbHttp.url,
      SHOKO_ANIDB_TITLES_URL: titles.url,
      SHOKO_ANIDB_IMAGE_URL: images.url,
    });
    server = await createTestServer();
    const key = await completeFirstRunWithAniDB(server, ANIDB_ACCOUNT);
    const folder = await server.request({
      method: 'POST',
      url: '/api/v3/ImportFolder',
      key,
      body: { Name: 'Demo Library', Path: library, DropFolderType: 'Source', WatchForNewFiles: false },
    });
    if (folder.statusCode !== 200) throw new Error(`import folder: ${folder.statusCode} ${folder.body}`);
    const importFolderId = folder.json().ID as number;
    const scan = await server.request({ method: 'GET', url: `/api/v3/ImportFolder/${importFolderId}/Scan`, key });
    if (scan.statusCode !== 200) throw new Error(`scan: ${scan.statusCode} ${scan.body}`);
    await server.services.queue.idle();
    // The collection is ready when every file AniDB knows is linked to its series.
    const files = await server.request({ method: 'GET', url: '/api/v3/File?pageSize=0&include=XRefs', key });
    const list = files.json().List as Array<{
      ID: number;
      Locations: Array<{ RelativePath: string }>;
      SeriesIDs?: Array<{ SeriesID: { ID: number; AniDB: number } }>;
    }>;
    const linked = list.filter((f) => (f.SeriesIDs ?? []).length > 0);
    const expected = new Set(demo.files.map((f) => f.ed2k)).size;
    if (linked.length < expected) throw new Error(`demo import: ${linked.length} of ${expected} files linked`);
    const seriesByAnime = new Map(linked.flatMap((f) => f.SeriesIDs!.map((x) => [x.SeriesID.AniDB, x.SeriesID.ID] as const)));
    const fileByPath = new Map(
      list.flatMap((f) => f.Locations.map((l) => [l.RelativePath.replace(/\\/g, '/').replace(/^\//, ''), f.ID] as const)),
    );
    return { server, library, importFolderId, demo, seriesByAnime, fileByPath, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A parsed response body, read field by field the way a client does. */
export type Json = ReturnType<LightMyRequestResponse['json']>;

/** Asserts a status and parses the JSON body, with the body in the message when the status differs. */
export function jsonOf(res: LightMyRequestResponse, status = 200): Json {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.json();
}

/** ISO-8601 date-time, as .NET's DateTime parser and JavaScript's Date both accept. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
/** A calendar date (yyyy-MM-dd), what Shoko Relay parses air dates with. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** .NET TimeSpan text ([d.]hh:mm:ss[.fffffff]), what System.Text.Json reads a TimeSpan from. */
export const TIME_SPAN = /^-?(\d+\.)?\d{2}:\d{2}:\d{2}(\.\d{1,7})?$/;
