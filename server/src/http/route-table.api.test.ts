import { CONTRACT_ROUTES } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';
import { routeKey, routeKeys } from './access-policy.js';

/** Routes we serve that are not in the contract, each with the reason it exists. */
const EXTENSIONS: Record<string, string> = {
  'GET /': 'the console',
  'GET /index.html': 'the console',
  'GET /webui': 'the console',
  'GET /webui/index.html': 'the console',
  'GET /webui/{}': 'the console’s files',
  'GET /healthz': 'health for Docker and monitoring (our addition)',
  'GET /api/v3/Renamer/Journal': 'the relocation journal behind undo (our addition: a rename can be taken back)',
  'POST /api/v3/Renamer/Journal/{}/Undo': 'undo of one journaled relocation',
  'GET /api/v3/Backup': 'backups of the database and settings (our addition: Shoko has no way back from a broken database)',
  'POST /api/v3/Backup': 'make a backup now',
  'GET /api/v3/Backup/Status': 'whether backups work here (PostgreSQL needs pg_dump), the schedule, a pending restore',
  'GET /api/v3/Backup/{}': 'download a backup',
  'DELETE /api/v3/Backup/{}': 'delete a backup',
  'POST /api/v3/Backup/{}/Restore': 'restore a backup at the next start',
  'DELETE /api/v3/Backup/Restore': 'cancel the restore scheduled for the next start',
  'POST /api/v3/ShokoImport/DryRun': 'moving from Shoko Server (our addition): what importing its data folder would bring over',
  'POST /api/v3/ShokoImport/Start': "import a Shoko Server data folder into this empty server (the first-run wizard's import)",
  'GET /api/v3/ShokoImport/Status': 'progress and report of the Shoko import',
  'GET /api/v3/ImportFolder/{}/OfflineRecords': 'what removing the records of an offline import folder would remove (issue 49)',
  'DELETE /api/v3/ImportFolder/{}/OfflineRecords': 'the explicit removal of an offline folder’s records, with the confirmed count',
  'GET /api/v3/User/Current/WebUISettings': "the caller's own console settings, the server's until it saves some (issue 44)",
  'PUT /api/v3/User/Current/WebUISettings': "save the caller's own console settings (a non-admin may not change the server's)",
  'GET /api/v3/Dashboard/Summary': "the dashboard's widgets in one round trip, each under its own key as its own route answers (issue 45)",
  'GET /api/v3/WebUI/Series/{}/Overview': "the series page's panels beside the series in one call, as their own routes answer (issue 45)",
  'GET /api/v3/Queue/AniDBEstimate': 'how long the AniDB work in the queue takes at the pace of the settings (issue 44)',
  'GET /api/v3/File/{}/Playback': 'watching in the browser (issue 43): streams, subtitles, fonts, signed URLs, resume',
  'POST /api/v3/Playback/Session': 'an HLS session that copies what the browser decodes and transcodes the rest',
  'GET /api/v3/Playback/Session/{}/{}': "a session's playlist, init segment and segments (signed token, no key)",
  'POST /api/v3/Playback/Session/{}/Stop': 'end a session from navigator.sendBeacon (signed token)',
  'POST /api/v3/Playback/Session/{}/KeepAlive': 'keep a paused viewer’s session past the 60 s silence timeout (signed token)',
  'DELETE /api/v3/Playback/Session/{}': 'end a session with the API key',
  'GET /api/v3/Playback/File/{}/Subtitle/{}': 'a text subtitle as ASS or WebVTT for the player (signed token)',
  'GET /api/v3/Playback/File/{}/Font/{}': 'a font attached to the file, for the ASS renderer (signed token)',
};

/** The keys a contract route answers to (`{name?}` may also be left out), as the access table matches them. */
const contractKeys = (route: string) => {
  const [method, path] = route.split(' ');
  return routeKeys(method!, path!);
};

/** The hub endpoints are SignalR's (negotiate, long polling, WebSocket), described by the hub protocol, not as routes. */
const isHubEndpoint = (url: string) => url.toLowerCase().startsWith('/signalr/');
const isDocumentation = (url: string) => url.startsWith('/swagger');

describe('route table', () => {
  let server: TestServer;
  let served: Map<string, string>;

  beforeAll(async () => {
    server = await createTestServer();
    served = new Map(
      server.routes
        .filter((r) => !isHubEndpoint(r.url) && !isDocumentation(r.url))
        .map((r) => [routeKey(r.method, r.url), `${r.method} ${r.url}`]),
    );
  });
  afterAll(() => server.close());

  it('serves every route of the contract', () => {
    const missing = CONTRACT_ROUTES.filter((route) => {
      // Fastify answers HEAD for every GET route.
      const [key] = contractKeys(route.replace(/^HEAD /, 'GET '));
      return !served.has(key);
    });
    expect(missing).toEqual([]);
  });

  it('serves nothing beyond the contract but the listed extensions', () => {
    const contract = new Set(CONTRACT_ROUTES.flatMap(contractKeys));
    const extensions = new Set(Object.keys(EXTENSIONS).flatMap(contractKeys));
    const extra = [...served].filter(([key]) => !contract.has(key) && !extensions.has(key)).map(([, route]) => route);
    expect(extra).toEqual([]);
  });

  it('answers HEAD where the contract names it', () => {
    const head = CONTRACT_ROUTES.filter((route) => route.startsWith('HEAD '));
    expect(head.length).toBeGreaterThan(0);
    for (const route of head) {
      const [key] = contractKeys(route.replace(/^HEAD /, 'GET '));
      const get = served.get(key);
      expect(get, route).toBeDefined();
      expect(server.app.hasRoute({ method: 'HEAD', url: get!.slice(4) }), route).toBe(true);
    }
  });
});
