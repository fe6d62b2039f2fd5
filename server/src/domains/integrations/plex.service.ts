import type { Logger } from 'pino';
import type { PlexDirectory, PlexMediaDevice } from '@shoko-ts/contract';
import { badRequest, HttpError, notFound, problemError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import type { PlexClient, PlexPin, PlexServerDevice } from './plex.client.js';
import type { PlexStore } from './plex.store.js';

/** A positive "authenticated" answer is trusted this long without asking plex.tv again (Shoko: 30 min). */
const AUTH_CACHE_MS = 30 * 60 * 1000;
/** The account's server list is re-read at most this often when libraries are asked for. */
const SERVER_LIST_CACHE_MS = 60 * 60 * 1000;
/** A connection that answered is reused this long (Shoko: 12 h). */
const CONNECTION_CACHE_MS = 12 * 60 * 60 * 1000;

export const NO_DIRECTORIES = 'No directories found please ensure server token is set and try again';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Plex linking per Shoko user (contract server.md §8.1): a PIN approved on app.plex.tv yields the user's token; with
 * it the account's media servers are listed, one is selected (global setting `Plex.Server`) and its libraries chosen
 * (`Plex.Libraries`).
 */
export class PlexService {
  private readonly pins = new Map<number, PlexPin>();
  private readonly authenticatedAt = new Map<number, number>();
  private readonly serverLists = new Map<number, { at: number; servers: PlexServerDevice[] }>();
  private readonly connections = new Map<string, { at: number; uri: string }>();

  constructor(private readonly deps: { client: PlexClient; tokens: PlexStore; settings: SettingsService; logger: Logger }) {}

  /** `GET /plex/loginurl`: a strong PIN (reused while valid) and the app.plex.tv page that approves it. */
  async loginUrl(userId: number): Promise<string> {
    let pin = this.pins.get(userId);
    if (!pin || pin.expiresAt <= Date.now()) {
      try {
        pin = await this.deps.client.createPin();
      } catch (error) {
        this.deps.logger.error(`Creating a Plex PIN failed: ${message(error)}`);
        throw problemError(502, 'plex.tv could not be reached to start the login.');
      }
      this.pins.set(userId, pin);
    }
    return this.deps.client.loginUrl(pin);
  }

  /** `GET /plex/pin/authenticated`: claims an approved PIN's token, then asks plex.tv whether the token works. */
  async isAuthenticated(userId: number): Promise<boolean> {
    let token = await this.deps.tokens.token(userId);
    const cachedAt = this.authenticatedAt.get(userId);
    if (token && cachedAt && Date.now() - cachedAt < AUTH_CACHE_MS) return true;
    try {
      if (!token) token = await this.claimPin(userId);
      if (!token) return false;
      const check = await this.deps.client.checkAccount(token);
      if (check === 'valid') {
        this.authenticatedAt.set(userId, Date.now());
        return true;
      }
      if (check === 'revoked') {
        this.deps.logger.info(`plex.tv no longer accepts the Plex token of user ${userId}; it is removed`);
        await this.forget(userId);
      }
      return false;
    } catch (error) {
      this.deps.logger.warn(`Checking the Plex login failed: ${message(error)}`);
      return false;
    }
  }

  private async claimPin(userId: number): Promise<string | null> {
    const pending = this.pins.get(userId);
    if (!pending) return null;
    const pin = await this.deps.client.readPin(pending.id);
    if (!pin) {
      this.pins.delete(userId);
      return null;
    }
    if (!pin.authToken) return null;
    await this.deps.tokens.setToken(userId, pin.authToken);
    this.pins.delete(userId);
    this.deps.logger.info(`Plex account linked for user ${userId}`);
    return pin.authToken;
  }

  /** `GET /plex/token/invalidate`: forgets the user's token and PIN; server and libraries settings stay. */
  async forget(userId: number): Promise<void> {
    this.pins.delete(userId);
    this.authenticatedAt.delete(userId);
    this.serverLists.delete(userId);
    await this.deps.tokens.setToken(userId, null);
  }

  /** `GET /plex/server/list`: `[]` without a token. */
  async servers(userId: number): Promise<PlexMediaDevice[]> {
    const servers = await this.serverList(userId, { fresh: true });
    return servers.map((s) => s.device);
  }

  /** `POST /plex/server`: the id must be one of the user's servers. */
  async selectServer(userId: number, clientIdentifier: unknown): Promise<void> {
    if (typeof clientIdentifier !== 'string' || !clientIdentifier.trim()) throw badRequest('Invalid Client ID');
    const servers = await this.serverList(userId, { fresh: false });
    if (!servers.some((s) => s.device.ClientIdentifier === clientIdentifier)) throw badRequest('Invalid Client ID');
    await this.deps.settings.update((settings) => {
      settings.Plex.Server = clientIdentifier;
    });
  }

  /** `GET /plex/libraries`: every section of the selected server (the console keeps those of Shoko's agents). */
  async libraries(userId: number): Promise<PlexDirectory[]> {
    try {
      const target = await this.selectedServer(userId);
      if (!target) throw notFound(NO_DIRECTORIES);
      return await this.deps.client.sections(target.uri, target.server.accessToken);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.connections.delete(this.deps.settings.current.Plex.Server);
      this.deps.logger.warn(`Reading the libraries of the Plex server failed: ${message(error)}`);
      throw notFound(NO_DIRECTORIES);
    }
  }

  /** `POST /plex/libraries`: `[]` clears; otherwise only keys the server has are kept (none → 400). */
  async setLibraries(userId: number, keys: number[]): Promise<void> {
    let kept: number[] = [];
    if (keys.length) {
      const available = new Set(
        await this.libraries(userId)
          .catch(() => {
            throw badRequest(NO_DIRECTORIES);
          })
          .then((libraries) => libraries.map((l) => l.Key)),
      );
      kept = [...new Set(keys.filter((key) => available.has(key)))];
      if (!kept.length) throw badRequest(NO_DIRECTORIES);
    }
    await this.deps.settings.update((settings) => {
      settings.Plex.Libraries = kept;
    });
  }

  /** The selected server of the settings as this user's account sees it, with a connection that answers. */
  async selectedServer(userId: number): Promise<{ server: PlexServerDevice; uri: string } | null> {
    const selected = this.deps.settings.current.Plex.Server;
    const server = selected
      ? (await this.serverList(userId, { fresh: false })).find((s) => s.device.ClientIdentifier === selected)
      : undefined;
    return server ? { server, uri: await this.connection(server) } : null;
  }

  private async serverList(userId: number, options: { fresh: boolean }): Promise<PlexServerDevice[]> {
    const cached = this.serverLists.get(userId);
    if (!options.fresh && cached && Date.now() - cached.at < SERVER_LIST_CACHE_MS) return cached.servers;
    const token = await this.deps.tokens.token(userId);
    if (!token) return [];
    try {
      const servers = await this.deps.client.servers(token);
      this.serverLists.set(userId, { at: Date.now(), servers });
      return servers;
    } catch (error) {
      this.deps.logger.warn(`Reading the Plex server list failed: ${message(error)}`);
      return cached?.servers ?? [];
    }
  }

  private async connection(server: PlexServerDevice): Promise<string> {
    const id = server.device.ClientIdentifier;
    const cached = this.connections.get(id);
    if (cached && Date.now() - cached.at < CONNECTION_CACHE_MS) return cached.uri;
    const uri = await this.deps.client.reachableUri(server);
    this.connections.set(id, { at: Date.now(), uri });
    return uri;
  }
}
