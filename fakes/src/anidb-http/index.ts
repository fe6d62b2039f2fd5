import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { StrictAniDB, type StrictRules } from '../anidb-strict/index.js';

export { inventedAnimeXml, inventedEpisodeId, type InventedAnimeOptions } from './sample-anime.js';

/**
 * `when-accepted` (default): gzip with `Content-Encoding` if the request's Accept-Encoding allows it;
 * `never`: plain XML; `without-header`: gzip bytes with no `Content-Encoding`, as AniDB sometimes sends them.
 */
export type FakeAniDBHttpCompression = 'when-accepted' | 'never' | 'without-header';

export interface StartFakeAniDBHttpOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** Anime XML by AniDB id. */
  anime: Record<number, string>;
  /** Answer every request with AniDB's ban reply. */
  banned?: boolean;
  /** Wait this long before answering each request. */
  delayMs?: number;
  compression?: FakeAniDBHttpCompression;
  /** Enforce AniDB's rules like AniDB: too fast, two at once, or one anime twice a day gets the client banned. */
  strict?: StrictRules;
}

export interface FakeAniDBHttp {
  /** Base URL without `/httpapi` (the client's `AniDb.HTTPServerUrl`), e.g. `http://127.0.0.1:PORT`. */
  url: string;
  /** Every request as `/path?query`, in arrival order. */
  requests: string[];
  /** `Date.now()` at the arrival of each entry of `requests`. */
  requestTimes: number[];
  /** Scenario switches; change them while the fake runs. */
  anime: Record<number, string>;
  banned: boolean;
  /** Answer every request with this HTTP status and no XML (an overloaded or broken AniDB); null = normal answers. */
  failStatus: number | null;
  delayMs: number;
  compression: FakeAniDBHttpCompression;
  /** The rule keeper when started `strict`: its `bans` list every ban it handed out. */
  strict: StrictAniDB | null;
  close(): Promise<void>;
}

export const BANNED_REPLY = '<error>Banned</error>';
/** AniDB's other wording of a ban, sent when the strict rules ban a client. */
const STRICT_BANNED_REPLY = '<error code="500">banned</error>';
export const ANIME_NOT_FOUND_REPLY = '<error>Anime not found</error>';
export const CLIENT_REJECTED_REPLY = '<error code="302">client version missing or invalid</error>';

/** What AniDB answers to `GET /httpapi?...`; errors come with HTTP 200, as AniDB sends them. */
function answer(fake: FakeAniDBHttp, params: URLSearchParams): string {
  if (fake.banned) return BANNED_REPLY;
  if (!params.get('client') || !/^\d+$/.test(params.get('clientver') ?? '') || params.get('protover') !== '1') return CLIENT_REJECTED_REPLY;
  if (params.get('request') !== 'anime') return '<error>Unknown request</error>';
  const aid = Number(params.get('aid'));
  if (!Number.isInteger(aid) || aid <= 0) return '<error>aid Missing or Invalid</error>';
  return fake.anime[aid] ?? ANIME_NOT_FOUND_REPLY;
}

/** A loopback stand-in for AniDB's HTTP API (`request=anime` only). */
export async function startFakeAniDBHttp(options: StartFakeAniDBHttpOptions): Promise<FakeAniDBHttp> {
  const fake: FakeAniDBHttp = {
    url: '',
    requests: [],
    requestTimes: [],
    anime: { ...options.anime },
    banned: options.banned ?? false,
    failStatus: null,
    delayMs: options.delayMs ?? 0,
    compression: options.compression ?? 'when-accepted',
    strict: options.strict ? new StrictAniDB(options.strict) : null,
    close: () => Promise.resolve(),
  };

  let inFlight = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://fake');
    fake.requests.push(`${target.pathname}${target.search}`);
    fake.requestTimes.push(Date.now());
    const aid = Number(target.searchParams.get('aid'));
    const verdict = fake.strict?.request({
      animeId: target.searchParams.get('request') === 'anime' && aid > 0 ? aid : undefined,
      concurrent: inFlight > 0,
    });
    inFlight += 1;
    response.on('close', () => (inFlight -= 1));
    const respond = () => {
      if (response.destroyed) return;
      if (request.method !== 'GET' || target.pathname !== '/httpapi') {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
      }
      if (fake.failStatus !== null) {
        response.writeHead(fake.failStatus, { 'Content-Type': 'text/plain' }).end('Service Unavailable');
        return;
      }
      // A banned client that keeps asking hears the same again (and its ban starts over).
      const reply = verdict && verdict.kind !== 'ok' ? STRICT_BANNED_REPLY : answer(fake, target.searchParams);
      const xml = Buffer.from(reply.startsWith('<?xml') ? reply : `<?xml version="1.0" encoding="UTF-8"?>\n${reply}`, 'utf8');
      const acceptsGzip = /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
      const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'text/xml; charset=UTF-8' };
      let body = xml;
      if (fake.compression === 'without-header' || (fake.compression === 'when-accepted' && acceptsGzip)) {
        body = gzipSync(xml);
        if (fake.compression === 'when-accepted') headers['Content-Encoding'] = 'gzip';
      }
      response.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body);
    };
    if (fake.delayMs > 0) setTimeout(respond, fake.delayMs).unref();
    else respond();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
