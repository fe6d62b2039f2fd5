import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StrictAniDB, type StrictRules } from '../anidb-strict/index.js';
import { solidPng } from '../tmdb/png.js';

export interface FakeAniDBImages {
  /** Base URL of the picture folder, e.g. `http://127.0.0.1:PORT/images/main` (the server's SHOKO_ANIDB_IMAGE_URL). */
  url: string;
  /** Picture names asked for, in order. */
  requests: string[];
  /** Names answered with 404. */
  missing: Set<string>;
  /** The rule keeper when started `strict`: its `bans` list every ban it handed out, its `times` every arrival. */
  strict: StrictAniDB | null;
  close(): Promise<void>;
}

export interface StartFakeAniDBImagesOptions {
  /** Enforce AniDB's pacing like AniDB: too fast, two at once or too many in an hour gets a 403 and a ban. */
  strict?: StrictRules;
}

/** A loopback stand-in for AniDB's image CDN: every `/images/main/<name>` is a small invented picture. */
export async function startFakeAniDBImages(options: StartFakeAniDBImagesOptions = {}): Promise<FakeAniDBImages> {
  const fake: FakeAniDBImages = {
    url: '',
    requests: [],
    missing: new Set(),
    strict: options.strict ? new StrictAniDB(options.strict) : null,
    close: () => Promise.resolve(),
  };
  let inFlight = 0;
  const server = http.createServer((request, response) => {
    const match = /^\/images\/main\/([A-Za-z0-9._-]+)$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    fake.requests.push(match[1]);
    const verdict = fake.strict?.request({ concurrent: inFlight > 0 });
    inFlight += 1;
    response.on('close', () => (inFlight -= 1));
    if (verdict && verdict.kind !== 'ok') {
      response.writeHead(403, { 'Content-Type': 'text/plain' }).end('Banned');
      return;
    }
    if (fake.missing.has(match[1])) {
      response.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>404</html>');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'image/png' }).end(solidPng(match[1], 120, 170));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/images/main`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
