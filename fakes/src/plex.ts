import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeNow, listenOnLoopback } from './loopback.js';

/**
 * Loopback Plex: a plex.tv (PIN login, account check, XML resources list) and one Plex Media Server whose library
 * sections include one per Shoko agent plus one of Plex's own agent. The plex.tv fake also serves the app's `/auth`
 * page, where a browser test approves the PIN like a user would (the server gets `SHOKO_PLEX_APP_URL` = `url`).
 */
export interface StartFakePlexOptions {
  /** The token a PIN receives once approved. Default `plex-user-token-abc`. */
  userToken?: string;
  /** The media server's access token. Default `pms-token-xyz`. */
  serverToken?: string;
  /** `expiresIn` of strong PINs in seconds. Default 1800. */
  pinLifetime?: number;
}

export interface FakePlexPin {
  id: number;
  code: string;
  clientIdentifier: string;
  authToken: string | null;
  expiresAt: number;
}

export interface FakePlex {
  /** plex.tv base, e.g. `http://127.0.0.1:PORT` (`SHOKO_PLEXTV_URL`, and `SHOKO_PLEX_APP_URL` for the auth page). */
  url: string;
  /** The media server's base. */
  serverUrl: string;
  userToken: string;
  serverToken: string;
  /** Every request to either server as `METHOD /path`, plex.tv ones prefixed `tv `, media server ones `pms `. */
  requests: string[];
  pins: FakePlexPin[];
  /** Approves the PIN (by id or code), as the user signing in on app.plex.tv. */
  approvePin(idOrCode: number | string): void;
  /** Lets the PIN run out now (plex.tv then answers 404 for it). */
  expirePin(idOrCode: number | string): void;
  /** From now on plex.tv answers 422 for the user token (Plex revoked it). */
  invalidateUserToken(): void;
  /** The media server's `/:/scrobble` calls, as rating keys. */
  scrobbled: string[];
  close(): Promise<void>;
}

export const FAKE_PLEX_SERVER_ID = 'pms-0001';

interface Section {
  key: string;
  type: string;
  title: string;
  agent: string;
  scanner: string;
  language: string;
  path: string;
}

const SECTIONS: Section[] = [
  {
    key: '2',
    type: 'show',
    title: 'Anime (ShokoMetadata)',
    agent: 'com.plexapp.agents.shoko',
    scanner: 'Shoko Series Scanner',
    language: 'xn',
    path: '/media/anime-legacy',
  },
  {
    key: '3',
    type: 'show',
    title: 'Anime',
    agent: 'com.plexapp.agents.shokorelay',
    scanner: 'Shoko Relay Scanner',
    language: 'xn',
    path: '/media/anime',
  },
  { key: '4', type: 'show', title: 'TV', agent: 'tv.plex.agents.series', scanner: 'Plex TV Series', language: 'en-US', path: '/media/tv' },
];

/**
 * The shows of each section, one episode each: section 3's is unwatched in Plex until scrobbled; section 2's was
 * watched in Plex already (a sync of only the selected libraries must leave it alone while 2 is not selected).
 */
const SHOWS: Record<
  string,
  Array<{ ratingKey: string; title: string; episode: { ratingKey: string; title: string; file: string; watched: boolean } }>
> = {
  '2': [
    {
      ratingKey: '102',
      title: 'Hoshi no Tsuri',
      episode: {
        ratingKey: '305',
        title: 'The First Catch',
        file: '/media/anime-legacy/Hoshi no Tsuri/Hoshi no Tsuri - 01.mkv',
        watched: true,
      },
    },
  ],
  '3': [
    {
      ratingKey: '101',
      title: 'The Library Above the Clouds',
      episode: {
        ratingKey: '205',
        title: 'The Falling Catalogue',
        file: '/media/anime/Kumo no Ue no Toshokan/Kumo no Ue no Toshokan - 01.mkv',
        watched: false,
      },
    },
  ],
};

function authPage(origin: string): string {
  return `<!doctype html><html><head><title>Plex sign in</title></head><body>
<h1>Sign in to Plex</h1><p id="app"></p><button id="approve">Approve</button><p id="result"></p>
<script>
const params = new URLSearchParams(location.hash.replace(/^#\\??/, ''));
document.getElementById('app').textContent = 'App ' + params.get('clientID') + ' asks to sign in.';
document.getElementById('approve').onclick = async () => {
  const r = await fetch('${origin}/__pin/' + encodeURIComponent(params.get('code')) + '/approve', { method: 'POST' });
  document.getElementById('result').textContent = r.ok ? 'Signed in. You can close this window.' : 'Unknown code';
};
</script></body></html>`;
}

const xmlAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export async function startFakePlex(options: StartFakePlexOptions = {}): Promise<FakePlex> {
  const userToken = options.userToken ?? 'plex-user-token-abc';
  const serverToken = options.serverToken ?? 'pms-token-xyz';
  const pinLifetime = options.pinLifetime ?? 1800;
  const requests: string[] = [];
  const pins: FakePlexPin[] = [];
  const scrobbled: string[] = [];
  let userTokenRevoked = false;
  let nextPinId = 4242001;
  let origin = '';
  let serverOrigin = '';

  const json = (response: http.ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) return void response.writeHead(status).end();
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const pinBody = (pin: FakePlexPin) => ({
    id: pin.id,
    code: pin.code,
    product: 'Shoko Server Sync',
    trusted: false,
    qr: `${origin}/api/v2/pins/qr/${pin.code}`,
    clientIdentifier: pin.clientIdentifier,
    location: { code: 'XX' },
    expiresIn: Math.max(0, Math.round((pin.expiresAt - Date.now()) / 1000)),
    createdAt: new Date(pin.expiresAt - pinLifetime * 1000).toISOString(),
    expiresAt: new Date(pin.expiresAt).toISOString(),
    authToken: pin.authToken,
    newRegistration: null,
  });
  const findPin = (idOrCode: number | string) => pins.find((p) => String(p.id) === String(idOrCode) || p.code === idOrCode);

  const resources = () => `<?xml version="1.0" encoding="UTF-8"?>
<MediaContainer size="2">
  <Device name="HomeMedia" product="Plex Media Server" productVersion="1.40.0" platform="Linux" platformVersion="6.1" device="PC" clientIdentifier="${FAKE_PLEX_SERVER_ID}" createdAt="1600000000" lastSeenAt="1719900000" provides="server" owned="1" accessToken="${xmlAttr(serverToken)}" publicAddress="198.51.100.7" httpsRequired="0" synced="0" relay="0" publicAddressMatches="1" presence="1" ownerId="" home="0" sourceTitle="">
    <Connection protocol="http" address="127.0.0.2" port="9" uri="http://127.0.0.2:9" local="1"/>
    <Connection protocol="http" address="127.0.0.1" port="${new URL(serverOrigin).port}" uri="${serverOrigin}" local="1"/>
  </Device>
  <Device name="Phone" product="Plex for Android" productVersion="10.0" platform="Android" platformVersion="14" device="Pixel" clientIdentifier="phone-01" createdAt="1600000000" lastSeenAt="1719900000" provides="player,controller" owned="1" accessToken="t2" publicAddress="198.51.100.7" httpsRequired="0" synced="0" relay="0" publicAddressMatches="1" presence="0" ownerId="" home="0" sourceTitle=""/>
</MediaContainer>`;

  const plexTv = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    requests.push(`tv ${method} ${url.pathname}`);
    const clientId = request.headers['x-plex-client-identifier'];
    const tokenHeader = request.headers['x-plex-token'];

    if (method === 'GET' && url.pathname === '/auth') {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      return response.end(authPage(origin));
    }
    const approve = /^\/__pin\/([^/]+)\/approve$/.exec(url.pathname);
    if (approve && method === 'POST') {
      const pin = findPin(decodeURIComponent(approve[1]));
      if (!pin) return json(response, 404, { errors: [{ code: 1020, message: 'Code not found or expired' }] });
      pin.authToken = userToken;
      response.setHeader('Access-Control-Allow-Origin', '*');
      return json(response, 204);
    }
    if (method === 'POST' && url.pathname === '/api/v2/pins') {
      if (typeof clientId !== 'string' || !clientId)
        return json(response, 400, { errors: [{ code: 1000, message: 'X-Plex-Client-Identifier is missing' }] });
      const strong = url.searchParams.get('strong') === 'true';
      const pin: FakePlexPin = {
        id: nextPinId++,
        code: strong ? randomBytes(12).toString('hex') : randomBytes(2).toString('hex').toUpperCase(),
        clientIdentifier: clientId,
        authToken: null,
        expiresAt: Date.now() + (strong ? pinLifetime : 900) * 1000,
      };
      pins.push(pin);
      return json(response, 201, pinBody(pin));
    }
    const pinMatch = /^\/api\/v2\/pins\/(\d+)$/.exec(url.pathname);
    if (pinMatch && method === 'GET') {
      if (typeof clientId !== 'string' || !clientId)
        return json(response, 400, { errors: [{ code: 1000, message: 'X-Plex-Client-Identifier is missing' }] });
      const pin = pins.find((p) => String(p.id) === pinMatch[1] && p.clientIdentifier === clientId);
      if (!pin || pin.expiresAt <= Date.now())
        return json(response, 404, { errors: [{ code: 1020, message: 'Code not found or expired' }] });
      return json(response, 200, pinBody(pin));
    }
    if (method === 'GET' && url.pathname === '/users/account.json') {
      if (tokenHeader !== userToken) return json(response, 401, { error: 'Invalid authentication token.' });
      if (userTokenRevoked) return json(response, 422, { error: 'Token is no longer valid.' });
      return json(response, 200, { user: { id: 1, uuid: 'u-1', username: 'tester', title: 'tester', email: 'tester@example.test' } });
    }
    if (method === 'GET' && url.pathname === '/api/resources') {
      if (tokenHeader !== userToken || userTokenRevoked) return json(response, 401, { error: 'Invalid authentication token.' });
      response.writeHead(200, { 'Content-Type': 'application/xml' });
      return response.end(resources());
    }
    json(response, 404);
  });

  const mediaServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    requests.push(`pms ${method} ${url.pathname}`);
    if (request.headers['x-plex-token'] !== serverToken) return json(response, 401);
    if (method !== 'GET') return json(response, 404);
    if (url.pathname === '/library/sections') {
      return json(response, 200, {
        MediaContainer: {
          size: SECTIONS.length,
          allowSync: false,
          title1: 'Plex Library',
          Directory: SECTIONS.map((s) => ({
            allowSync: true,
            art: '/:/resources/show-fanart.jpg',
            composite: `/library/sections/${s.key}/composite/1719900000`,
            filters: true,
            refreshing: false,
            thumb: '/:/resources/show.png',
            key: s.key,
            type: s.type,
            title: s.title,
            agent: s.agent,
            scanner: s.scanner,
            language: s.language,
            uuid: `sec-uuid-${s.key}`,
            updatedAt: 1719900000,
            createdAt: 1600000000,
            Location: [{ id: Number(s.key), path: s.path }],
          })),
        },
      });
    }
    const all = /^\/library\/sections\/(\d+)\/all$/.exec(url.pathname);
    if (all) {
      if (!SECTIONS.some((s) => s.key === all[1])) return json(response, 404);
      const metadata = (SHOWS[all[1]] ?? []).map((show) => ({
        ratingKey: show.ratingKey,
        key: `/library/metadata/${show.ratingKey}/children`,
        type: 'show',
        title: show.title,
        leafCount: 1,
        viewedLeafCount: 0,
      }));
      return json(response, 200, { MediaContainer: { size: metadata.length, librarySectionID: Number(all[1]), Metadata: metadata } });
    }
    const leaves = /^\/library\/metadata\/(\d+)\/allLeaves$/.exec(url.pathname);
    const show =
      leaves &&
      Object.values(SHOWS)
        .flat()
        .find((s) => s.ratingKey === leaves[1]);
    if (show) {
      const { episode } = show;
      const viewCount = episode.watched || scrobbled.includes(episode.ratingKey) ? 1 : 0;
      return json(response, 200, {
        MediaContainer: {
          size: 1,
          Metadata: [
            {
              ratingKey: episode.ratingKey,
              type: 'episode',
              title: episode.title,
              index: 1,
              parentIndex: 1,
              viewCount,
              lastViewedAt: viewCount ? 1719900000 : undefined,
              Media: [{ id: Number(episode.ratingKey), Part: [{ id: Number(episode.ratingKey), file: episode.file }] }],
            },
          ],
        },
      });
    }
    if (url.pathname === '/:/scrobble' || url.pathname === '/:/unscrobble') {
      const key = url.searchParams.get('key') ?? '';
      if (url.pathname === '/:/scrobble') scrobbled.push(key);
      else scrobbled.splice(0, scrobbled.length, ...scrobbled.filter((k) => k !== key));
      return json(response, 200);
    }
    json(response, 404);
  });

  origin = `http://127.0.0.1:${await listenOnLoopback(plexTv)}`;
  serverOrigin = `http://127.0.0.1:${await listenOnLoopback(mediaServer)}`;

  return {
    url: origin,
    serverUrl: serverOrigin,
    userToken,
    serverToken,
    requests,
    pins,
    scrobbled,
    approvePin(idOrCode) {
      const pin = findPin(idOrCode);
      if (!pin) throw new Error(`No Plex PIN ${idOrCode}`);
      pin.authToken = userToken;
    },
    expirePin(idOrCode) {
      const pin = findPin(idOrCode);
      if (!pin) throw new Error(`No Plex PIN ${idOrCode}`);
      pin.expiresAt = Date.now() - 1;
    },
    invalidateUserToken: () => void (userTokenRevoked = true),
    close: async () => {
      await closeNow(plexTv);
      await closeNow(mediaServer);
    },
  };
}
