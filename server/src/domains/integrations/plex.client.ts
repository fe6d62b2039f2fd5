import { XMLParser } from 'fast-xml-parser';
import { PlexLibraryType, type PlexDirectory, type PlexMediaDevice } from '@shoko-ts/contract';
import { send, serviceUrl } from './outbound.js';

export const DEFAULT_PLEXTV_URL = 'https://plex.tv';
export const DEFAULT_PLEX_APP_URL = 'https://app.plex.tv';
/** The client identifier Shoko presents to plex.tv (contract server.md §8.1); it is part of the login URL. */
export const PLEX_CLIENT_ID = 'd14f0724-a4e8-498a-bb67-add795b38331';
const TIMEOUT_MS = 10_000;

export interface PlexPin {
  id: number;
  code: string;
  /** Epoch ms. */
  expiresAt: number;
  authToken: string | null;
}

/** A media server as plex.tv lists it, with the access token the server's own API wants (kept server-side). */
export interface PlexServerDevice {
  device: PlexMediaDevice;
  accessToken: string;
  uris: string[];
}

export type PlexAccountCheck = 'valid' | 'revoked' | 'rejected';

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'Device' || name === 'Connection',
  parseAttributeValue: false,
});

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

const LIBRARY_TYPES: Record<string, number> = {
  track: PlexLibraryType.Track,
  show: PlexLibraryType.Show,
  artist: PlexLibraryType.Artist,
  movie: PlexLibraryType.Movie,
  episode: PlexLibraryType.Episode,
  photo: PlexLibraryType.Photo,
};

function toDirectory(raw: Record<string, unknown>): PlexDirectory {
  const locations = Array.isArray(raw.Location) ? (raw.Location as Record<string, unknown>[]) : [];
  return {
    AllowSync: raw.allowSync === true || raw.allowSync === 1 || raw.allowSync === '1',
    Art: text(raw.art),
    Composite: text(raw.composite),
    Filters: raw.filters === true || raw.filters === 1 || raw.filters === '1',
    Refreshing: raw.refreshing === true || raw.refreshing === 1 || raw.refreshing === '1',
    Thumb: text(raw.thumb),
    Key: Number(raw.key),
    Type: LIBRARY_TYPES[text(raw.type).toLowerCase()] ?? PlexLibraryType.Track,
    Title: text(raw.title),
    Agent: text(raw.agent),
    Scanner: text(raw.scanner),
    Language: text(raw.language),
    Uuid: text(raw.uuid),
    UpdatedAt: Number(raw.updatedAt) || 0,
    CreatedAt: Number(raw.createdAt) || 0,
    Location: locations.map((l) => ({ Id: Number(l.id) || 0, Path: text(l.path) })),
  };
}

function toServer(raw: Record<string, unknown>): PlexServerDevice {
  const connections = (raw.Connection as Record<string, unknown>[] | undefined) ?? [];
  const device: PlexMediaDevice = {
    Connection: connections.map((c) => ({
      Protocol: text(c.protocol),
      Address: text(c.address),
      Port: text(c.port),
      Uri: text(c.uri),
      Local: text(c.local),
    })),
    Name: text(raw.name),
    Product: text(raw.product),
    ProductVersion: text(raw.productVersion),
    Platform: text(raw.platform),
    PlatformVersion: text(raw.platformVersion),
    Device: text(raw.device),
    ClientIdentifier: text(raw.clientIdentifier),
    CreatedAt: text(raw.createdAt),
    LastSeenAt: text(raw.lastSeenAt),
    Provides: text(raw.provides),
    Owned: text(raw.owned),
    // The server's token is a secret: it stays on this server (Shoko hands it to any caller).
    AccessToken: '',
    PublicAddress: text(raw.publicAddress),
    HttpsRequired: text(raw.httpsRequired),
    Synced: text(raw.synced),
    Relay: text(raw.relay),
    PublicAddressMatches: text(raw.publicAddressMatches),
    Presence: text(raw.presence),
    OwnerId: text(raw.ownerId),
    Home: text(raw.home),
    SourceTitle: text(raw.sourceTitle),
  };
  return { device, accessToken: text(raw.accessToken), uris: device.Connection.map((c) => c.Uri).filter(Boolean) };
}

/** plex.tv (PIN login, account check, resources) and Plex Media Servers (library sections), external-services.md §4. */
export class PlexClient {
  readonly baseUrl: string;
  readonly appUrl: string;

  constructor(options: { baseUrl?: string; appUrl?: string; serverVersion: string }) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_PLEXTV_URL).replace(/\/+$/, '');
    this.appUrl = (options.appUrl ?? DEFAULT_PLEX_APP_URL).replace(/\/+$/, '');
    this.headers = {
      Accept: 'application/json',
      'X-Plex-Client-Identifier': PLEX_CLIENT_ID,
      'X-Plex-Platform': 'Shoko Server',
      'X-Plex-Platform-Version': options.serverVersion,
      'X-Plex-Device-Name': 'Shoko Server Sync',
      'X-Plex-Product': 'Shoko Server Sync',
      'X-Plex-Device': 'Shoko',
      'User-Agent': 'shoko-ts',
    };
  }

  private readonly headers: Record<string, string>;

  private request(method: string, url: string, token?: string) {
    return send(url, { method, headers: token ? { ...this.headers, 'X-Plex-Token': token } : this.headers, timeoutMs: TIMEOUT_MS });
  }

  /** Where the user signs in to approve `pin`. */
  loginUrl(pin: PlexPin): string {
    return `${this.appUrl}/auth#?clientID=${PLEX_CLIENT_ID}&code=${pin.code}`;
  }

  async createPin(): Promise<PlexPin> {
    const reply = await this.request('POST', `${this.baseUrl}/api/v2/pins?strong=true`);
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`plex.tv refused to create a PIN (HTTP ${reply.status})`);
    return this.pinOf(reply.text);
  }

  /** The PIN as plex.tv has it now, or `null` once it expired or is unknown. */
  async readPin(id: number): Promise<PlexPin | null> {
    const reply = await this.request('GET', `${this.baseUrl}/api/v2/pins/${id}`);
    if (reply.status === 404) return null;
    if (reply.status !== 200) throw new Error(`plex.tv could not read the PIN (HTTP ${reply.status})`);
    return this.pinOf(reply.text);
  }

  private pinOf(body: string): PlexPin {
    const pin = JSON.parse(body) as { id?: unknown; code?: unknown; expiresIn?: unknown; expiresAt?: unknown; authToken?: unknown };
    const expiresAt = typeof pin.expiresAt === 'string' ? Date.parse(pin.expiresAt) : Date.now() + (Number(pin.expiresIn) || 900) * 1000;
    return {
      id: Number(pin.id),
      code: text(pin.code),
      expiresAt,
      authToken: typeof pin.authToken === 'string' && pin.authToken ? pin.authToken : null,
    };
  }

  /** 200 = the token works; 422 = Plex revoked it; anything else = not accepted right now. */
  async checkAccount(token: string): Promise<PlexAccountCheck> {
    const reply = await this.request('GET', `${this.baseUrl}/users/account.json`, token);
    return reply.status === 200 ? 'valid' : reply.status === 422 ? 'revoked' : 'rejected';
  }

  /** The account's devices that provide `server` (the resources list is XML whatever Accept says). */
  async servers(token: string): Promise<PlexServerDevice[]> {
    const reply = await this.request('GET', `${this.baseUrl}/api/resources?includeHttps=1`, token);
    if (reply.status !== 200) throw new Error(`plex.tv refused the resources list (HTTP ${reply.status})`);
    const parsed = xml.parse(reply.text) as { MediaContainer?: { Device?: Record<string, unknown>[] } };
    return (parsed.MediaContainer?.Device ?? [])
      .filter((d) =>
        text(d.provides)
          .split(',')
          .map((p) => p.trim())
          .includes('server'),
      )
      .map(toServer);
  }

  /** The first connection of the server that answers its sections list, probed in parallel. */
  async reachableUri(server: PlexServerDevice): Promise<string> {
    if (!server.uris.length) throw new Error(`Plex server ${server.device.Name} lists no connection`);
    return Promise.any(
      server.uris.map(async (uri) => {
        const reply = await this.request('GET', `${uri.replace(/\/+$/, '')}/library/sections`, server.accessToken);
        if (reply.status !== 200) throw new Error(`HTTP ${reply.status}`);
        return uri.replace(/\/+$/, '');
      }),
    ).catch(() => {
      throw new Error(`No connection of Plex server ${server.device.Name} answered`);
    });
  }

  private async container(uri: string, accessToken: string, path: string): Promise<Record<string, unknown>[]> {
    const reply = await this.request('GET', `${uri}${path}`, accessToken);
    if (reply.status !== 200) throw new Error(`The Plex server refused ${path} (HTTP ${reply.status})`);
    return (JSON.parse(reply.text) as { MediaContainer?: { Metadata?: Record<string, unknown>[] } }).MediaContainer?.Metadata ?? [];
  }

  /** Rating keys of the shows in a library section. */
  async shows(uri: string, accessToken: string, sectionKey: number): Promise<string[]> {
    return (await this.container(uri, accessToken, `/library/sections/${sectionKey}/all`))
      .map((show) => text(show.ratingKey))
      .filter(Boolean);
  }

  async episodes(uri: string, accessToken: string, showRatingKey: string): Promise<PlexEpisode[]> {
    return (await this.container(uri, accessToken, `/library/metadata/${encodeURIComponent(showRatingKey)}/allLeaves`)).map((episode) => ({
      ratingKey: text(episode.ratingKey),
      viewCount: Number(episode.viewCount) || 0,
      lastViewedAt: Number(episode.lastViewedAt) || null,
      files: ((episode.Media as { Part?: { file?: unknown }[] }[] | undefined) ?? [])
        .flatMap((media) => (media.Part ?? []).map((part) => text(part.file)))
        .filter(Boolean),
    }));
  }

  /** Marks an item watched in Plex. */
  async scrobble(uri: string, accessToken: string, ratingKey: string): Promise<void> {
    const reply = await this.request(
      'GET',
      `${uri}/:/scrobble?identifier=com.plexapp.plugins.library&key=${encodeURIComponent(ratingKey)}`,
      accessToken,
    );
    if (reply.status !== 200) throw new Error(`The Plex server refused to mark ${ratingKey} watched (HTTP ${reply.status})`);
  }

  async sections(uri: string, accessToken: string): Promise<PlexDirectory[]> {
    const reply = await this.request('GET', `${uri}/library/sections`, accessToken);
    if (reply.status !== 200) throw new Error(`The Plex server refused its library list (HTTP ${reply.status})`);
    const body = JSON.parse(reply.text) as { MediaContainer?: { Directory?: Record<string, unknown>[] } };
    return (body.MediaContainer?.Directory ?? []).map(toDirectory);
  }
}

/** One episode of a Plex library as the watched-state sync needs it. */
export interface PlexEpisode {
  ratingKey: string;
  viewCount: number;
  /** Unix seconds, when Plex has it. */
  lastViewedAt: number | null;
  /** Server-side paths of the episode's files. */
  files: string[];
}

export function plexClientFromEnv(serverVersion: string, env: NodeJS.ProcessEnv = process.env): PlexClient {
  return new PlexClient({
    baseUrl: serviceUrl('SHOKO_PLEXTV_URL', DEFAULT_PLEXTV_URL, env),
    appUrl: serviceUrl('SHOKO_PLEX_APP_URL', DEFAULT_PLEX_APP_URL, env),
    serverVersion,
  });
}
