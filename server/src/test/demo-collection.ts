import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { File, FileAniDB, FileCrossReference, ShokoImportStatus } from '@shoko-ts/contract';
import { startFakeAniDBHttp, type FakeAniDBHttp } from '../../../fakes/src/anidb-http/index.js';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../fakes/src/anidb-udp/index.js';
import { startFakeAniDBTitles, type FakeAniDBTitles } from '../../../fakes/src/anidb-titles/index.js';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../fakes/src/anidb-images/index.js';
import { writeDemoLibrary, type DemoLibrary } from '../../../fakes/src/demo/library.js';
import { writeShokoDemoFolder } from '../../../fakes/src/shoko-data/demo-folder.js';
import { aniDBFakesEnv, completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from './harness.js';

/** The local account the replayed clients log in with (in the Shoko variant: the user Shoko knew, with its password). */
export const CLIENT_USER = { user: 'Default', pass: 'first-run-pass' };
const ANIDB_ACCOUNT = { username: 'kiri-tester', password: 'fog-and-letters' };
/** The API key Shoko issued to a client of CLIENT_USER (an AuthTokens row of the imported data folder). */
const SHOKO_CLIENT_KEY = '3f6d2a9e-7c41-4b8e-9a05-d1c7e2b46f18';

/**
 * The demo collection (fakes/src/demo) in a test server against the demo's AniDB fakes, in-process so the suites also
 * run on PostgreSQL: either scanned as `npm run demo` does it, or imported from the Shoko Server data folder Shoko
 * would have after scanning the same library (fakes/src/shoko-data/demo-folder.ts).
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
  /**
   * Imported from Shoko only: the API key a client got from Shoko Server, which the replayed clients use instead of
   * the key their own login returns.
   */
  shokoApiKey?: string;
  close(): Promise<void>;
}

/** How the library gets into the fresh server; gives an admin key and the import folder. */
type Arrival = (
  server: TestServer,
  demo: DemoLibrary,
  paths: { library: string; scratch: string },
) => Promise<{ key: string; importFolderId: number; shokoApiKey?: string }>;

/** The demo library scanned by a fresh server: first run, import folder, scan, AniDB lookups. */
export const startDemoCollection = (): Promise<DemoCollection> => startCollection(scanLibrary);

/** The same library and AniDB, arriving by the first-run Shoko import of the data folder Shoko would have for it. */
export const startImportedDemoCollection = (): Promise<DemoCollection> => startCollection(importFromShoko);

/** The suites' variants, for `describe.each`: the same collection scanned, and imported from Shoko. */
export const DEMO_COLLECTIONS = [
  ['scanned', startDemoCollection],
  ['imported from Shoko', startImportedDemoCollection],
] as const;

const scanLibrary: Arrival = async (server, _demo, { library }) => {
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
  return { key, importFolderId };
};

const importFromShoko: Arrival = async (server, demo, { library, scratch }) => {
  const shoko = await writeShokoDemoFolder(path.join(scratch, 'shoko'), demo, library, {
    user: { name: CLIENT_USER.user, password: CLIENT_USER.pass },
    apiKey: SHOKO_CLIENT_KEY,
    anidb: ANIDB_ACCOUNT,
  });
  const start = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/Start', body: { Folder: shoko.dir } });
  if (start.statusCode !== 202) throw new Error(`Shoko import: ${start.statusCode} ${start.body}`);
  let status: ShokoImportStatus;
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await server.request({ method: 'GET', url: '/api/v3/ShokoImport/Status' })).json();
  } while (status.State === 'Running');
  if (status.State !== 'Completed') throw new Error(`Shoko import: ${status.State} ${status.Error}`);
  // The server starts by itself once the import is done.
  while (!server.services.state.isStarted && server.services.state.current !== 'Failed') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.services.init.waitForStartup();
  }
  if (!server.services.state.isStarted) throw new Error(`Server did not start: ${JSON.stringify(server.services.state.status())}`);
  const folders = await server.request({ method: 'GET', url: '/api/v3/ImportFolder', key: SHOKO_CLIENT_KEY });
  if (folders.statusCode !== 200) throw new Error(`import folders: ${folders.statusCode} ${folders.body}`);
  return { key: SHOKO_CLIENT_KEY, importFolderId: folders.json()[0].ID as number, shokoApiKey: SHOKO_CLIENT_KEY };
};

async function startCollection(arrive: Arrival): Promise<DemoCollection> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-conformance-'));
  const library = path.join(scratch, 'library');
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
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const demo = await writeDemoLibrary(library);
    udp = await startFakeAniDBUdp({
      users: { [ANIDB_ACCOUNT.username]: ANIDB_ACCOUNT.password },
      commands: fileCommands(demo.files, demo.groups),
    });
    anidbHttp = await startFakeAniDBHttp({ anime: demo.anime });
    titles = await startFakeAniDBTitles({ anime: demo.titles });
    images = await startFakeAniDBImages();
    restoreEnv = setEnv(aniDBFakesEnv({ udp, http: anidbHttp, titles, images }));
    server = await createTestServer();
    const { key, importFolderId, shokoApiKey } = await arrive(server, demo, { library, scratch });
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
    return { server, library, importFolderId, demo, seriesByAnime, fileByPath, shokoApiKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A file as sent, with the members the contract's File leaves open: `SeriesIDs` (include=XRefs), `AniDB` (includeDataFrom=AniDB). */
export type SentFile = Omit<File, 'SeriesIDs' | 'AniDB'> & { SeriesIDs?: FileCrossReference[]; AniDB?: FileAniDB };
/** A file asked for with `include=XRefs`. */
export type XRefFile = SentFile & { SeriesIDs: FileCrossReference[] };

/** Starts a demo collection before the tests of the describe it is called in and closes it after them; reads it. */
export function useDemoCollection(start: () => Promise<DemoCollection>): () => DemoCollection {
  let demo: DemoCollection | undefined;
  beforeAll(async () => {
    demo = await start();
  }, 180_000);
  afterAll(async () => {
    await demo?.close();
  });
  return () => demo!;
}

/**
 * Asserts a status and parses the JSON body, with the body in the message when the status differs. `T` is the
 * contract's model of the answer: the suites still check at run time each field the client reads.
 */
export function jsonOf<T = unknown>(res: LightMyRequestResponse, status = 200): T {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.json();
}

/** ISO-8601 date-time, as .NET's DateTime parser and JavaScript's Date both accept. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
/** A calendar date (yyyy-MM-dd), what Shoko Relay parses air dates with. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** .NET TimeSpan text ([d.]hh:mm:ss[.fffffff]), what System.Text.Json reads a TimeSpan from. */
export const TIME_SPAN = /^-?(\d+\.)?\d{2}:\d{2}:\d{2}(\.\d{1,7})?$/;
