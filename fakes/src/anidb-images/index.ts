import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { solidPng } from '../tmdb/png.js';

export interface FakeAniDBImages {
  /** Base URL of the picture folder, e.g. `http://127.0.0.1:PORT/images/main` (the server's SHOKO_ANIDB_IMAGE_URL). */
  url: string;
  /** Picture names asked for, in order. */
  requests: string[];
  /** Names answered with 404. */
  missing: Set<string>;
  close(): Promise<void>;
}

/** A loopback stand-in for AniDB's image CDN: every `/images/main/<name>` is a small invented picture. */
export async function startFakeAniDBImages(): Promise<FakeAniDBImages> {
  const fake: FakeAniDBImages = { url: '', requests: [], missing: new Set(), close: () => Promise.resolve() };
  const server = http.createServer((request, response) => {
    const match = /^\/images\/main\/([A-Za-z0-9._-]+)$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    fake.requests.push(match[1]);
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
