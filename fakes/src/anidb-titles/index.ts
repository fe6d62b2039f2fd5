import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FakeTitlesAnime {
  id: number;
  /** `type` as the dump writes it: main, official, syn, short, card, kana. */
  titles: Array<{ type: string; language: string; value: string }>;
}

export interface FakeAniDBTitles {
  /** The dump's URL, e.g. `http://127.0.0.1:PORT/api/anime-titles.xml.gz`. */
  url: string;
  /** How often the dump was downloaded. */
  downloads: number;
  anime: FakeTitlesAnime[];
  /** Answer 503 instead of the file. */
  unavailable: boolean;
  close(): Promise<void>;
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function titlesDumpXml(anime: FakeTitlesAnime[]): string {
  const entries = anime.map(
    (a) =>
      `  <anime aid="${a.id}">\n${a.titles.map((t) => `    <title type="${escapeXml(t.type)}" xml:lang="${escapeXml(t.language)}">${escapeXml(t.value)}</title>`).join('\n')}\n  </anime>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<animetitles>\n${entries.join('\n')}\n</animetitles>\n`;
}

/** A loopback stand-in for AniDB's daily titles dump (`/api/anime-titles.xml.gz`), with invented titles. */
export async function startFakeAniDBTitles(options: { anime: FakeTitlesAnime[] }): Promise<FakeAniDBTitles> {
  const fake: FakeAniDBTitles = { url: '', downloads: 0, anime: [...options.anime], unavailable: false, close: () => Promise.resolve() };
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/api/anime-titles.xml.gz') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    if (fake.unavailable) {
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    fake.downloads += 1;
    response.writeHead(200, { 'Content-Type': 'application/x-gzip' }).end(gzipSync(Buffer.from(titlesDumpXml(fake.anime), 'utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/anime-titles.xml.gz`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
