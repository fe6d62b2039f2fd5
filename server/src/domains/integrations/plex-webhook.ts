import type { Logger } from 'pino';
import { HttpError, badRequest, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import type { PlexStore } from './plex.store.js';

/** The Shoko Plex agents' episode GUID: `com.plexapp.agents.shoko[relay]://<seriesID>/<season>/<episode>[?…]`. */
const SHOKO_GUID = /^com\.plexapp\.agents\.shoko(?:relay)?:\/\/(\d+)\/(-?\d+)\/(\d+)(?:[/?#].*)?$/i;

const NEED_PAYLOAD = 'Need a valid payload';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Plex's JSON is camelCase with some PascalCase objects; Shoko binds names case-insensitively, so do we. */
const prop = (object: Json, name: string): unknown => {
  const key = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : object[key];
};

export type WebhookOutcome =
  { marked: true; userId: number; episodeId: number } | { marked: false; reason: 'event' | 'guid' | 'episode' | 'user' | 'access' };

/**
 * `POST /plex` and `/plex.json` (contract server.md §8.1): Plex's webhook. On `media.scrobble` of an episode from a
 * Shoko agent library, the episode is marked watched.
 *
 * Whose watch state: Shoko takes the API key's user if the call has one, otherwise any user whose PlexUsernames
 * lists the Plex account's title — so anyone who can reach the server and knows (or guesses) a Plex account name can
 * mark episodes watched for that user. We keep both ways but close the anonymous one down to the Plex server this
 * install is linked to: a key-less payload must name, in `Server.uuid`, the media server selected in
 * `Settings.Plex.Server`; without a linked server only keyed calls (`/plex?apikey=…` in Plex's webhook URL) act.
 * Refused or unmatched payloads answer 200 like Shoko's (Plex ignores the answer), so the endpoint does not reveal
 * which Plex names exist.
 */
export class PlexWebhook {
  constructor(
    private readonly deps: {
      store: PlexStore;
      settings: SettingsService;
      logger: Logger;
      /** Marks the episode watched for the user; throws 403/404 HttpErrors when the user may not see it. */
      setEpisodeWatched(userId: number, episodeId: number): Promise<void>;
    },
  ) {}

  /** Reads the `payload` form field's JSON; 400 `Need a valid payload` without one, model errors for missing parts. */
  parse(payloadText: string | undefined): Json {
    if (payloadText === undefined || !payloadText.trim()) throw badRequest(NEED_PAYLOAD);
    let payload: unknown;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      throw validationError('payload', 'The payload is not valid JSON.');
    }
    if (!isObject(payload) || !isObject(prop(payload, 'Metadata'))) throw badRequest(NEED_PAYLOAD);
    const missing: string[] = [];
    if (typeof prop(payload, 'event') !== 'string') missing.push('Event');
    if (!isObject(prop(payload, 'Account'))) missing.push('Account');
    if (!isObject(prop(payload, 'Server'))) missing.push('Server');
    if (typeof prop(prop(payload, 'Metadata') as Json, 'guid') !== 'string') missing.push('Metadata.Guid');
    if (missing.length) throw validationError(Object.fromEntries(missing.map((field) => [field, [`The ${field} field is required.`]])));
    return payload;
  }

  async handle(payload: Json, keyUserId: number | null): Promise<WebhookOutcome> {
    const { logger } = this.deps;
    if (String(prop(payload, 'event')).toLowerCase() !== 'media.scrobble') return { marked: false, reason: 'event' };
    const metadata = prop(payload, 'Metadata') as Json;
    const guid = SHOKO_GUID.exec(String(prop(metadata, 'guid')));
    if (!guid) return { marked: false, reason: 'guid' };
    const [seriesId, season, number] = [Number(guid[1]), Number(guid[2]), Number(guid[3])];
    // Seasons 0 and below are specials, credits, trailers, parodies and others: Plex's numbering cannot be mapped back
    // to AniDB's for those (Shoko skips them too), nor an item whose index is 0.
    if (season < 1 || prop(metadata, 'index') === 0) return { marked: false, reason: 'episode' };

    const userId = keyUserId ?? (await this.userFromPlex(payload));
    if (userId === null) return { marked: false, reason: 'user' };

    const candidates = await this.deps.store.regularEpisodes(seriesId, number);
    const episode = candidates.length === 1 ? candidates[0] : candidates.find((c) => c.tmdbSeasons.includes(season));
    if (!episode) {
      logger.info(`Plex scrobble of ${String(prop(metadata, 'guid'))} matches no single episode; nothing marked`);
      return { marked: false, reason: 'episode' };
    }
    try {
      await this.deps.setEpisodeWatched(userId, episode.id);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 403 || error.status === 404)) return { marked: false, reason: 'access' };
      throw error;
    }
    logger.info(`Plex scrobble: episode ${episode.id} marked watched for user ${userId}`);
    return { marked: true, userId, episodeId: episode.id };
  }

  /** A key-less call acts only for the linked Plex server, and only for a user who listed the Plex account's name. */
  private async userFromPlex(payload: Json): Promise<number | null> {
    const linkedServer = this.deps.settings.current.Plex.Server.trim().toLowerCase();
    const server = prop(payload, 'Server') as Json;
    const uuid = String(prop(server, 'uuid') ?? '')
      .trim()
      .toLowerCase();
    if (!linkedServer || uuid !== linkedServer) {
      this.deps.logger.info('Ignored a Plex webhook without an API key from a Plex server other than the linked one');
      return null;
    }
    const title = String(prop(prop(payload, 'Account') as Json, 'title') ?? '')
      .trim()
      .toLowerCase();
    if (!title) return null;
    for (const user of await this.deps.store.plexUsernames()) {
      const names = user.plex_usernames.split(',').map((name) => name.trim().toLowerCase());
      if (names.includes(title)) return user.id;
    }
    this.deps.logger.info(`No user lists the Plex account "${title}" in PlexUsernames; scrobble ignored`);
    return null;
  }
}
