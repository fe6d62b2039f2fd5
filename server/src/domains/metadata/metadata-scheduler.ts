import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import { ANIME_MIN_REQUEST_INTERVAL_MS } from '../../providers/anidb/http/index.js';
import { updatedAnimeSince } from '../../providers/anidb/udp/index.js';
import type { EventBus } from '../../events/bus.js';
import { type SettingsService, UPDATE_FREQUENCY_MS } from '../settings/index.js';
import type { AniDBConnection } from './anidb-connection.js';
import type { AnimeImport } from './anime-import.js';
import type { FileMatching } from './file-matching.js';
import { MetadataSchedulerStore } from './metadata-scheduler.store.js';

const HOUR = 60 * 60_000;
/** How long an unknown file waits before AniDB is asked again, by the number of lookups so far. */
const RECHECK_DELAYS = [1, 6, 24, 72, 168].map((hours) => hours * HOUR);
const TICK_MS = 15 * 60_000;
/**
 * The first pass waits this long after start. Right after a start (or a Shoko import, which starts the services again)
 * is when people browse, every page reading the collection for the first time; the pass reads every unlinked file and
 * its AniDB record from a cold cache (40-75 ms on PostgreSQL after a 100,000-file import) and queues their lookups,
 * which slowed first visits made at the same moment. A minute later costs nothing: lookups wait on AniDB's pacing anyway.
 */
const FIRST_CHECK_DELAY_MS = 60_000;
/** How many due lookups are queued at a time before requests waiting to be answered get their turn. */
const LOOKUPS_PER_TURN = 200;
/** The `anidb_checks` row of the `UPDATED` check. */
const UPDATED_CHECK = 'updated-anime';
/** Each `UPDATED` check reaches this far behind the previous one, in case the clocks of AniDB and this server differ. */
const UPDATED_OVERLAP_MS = 5 * 60_000;

/** `AniDb.Anime_UpdateFrequency` as a maximum age; null = Never. */

export function recheckDelay(attempts: number): number {
  return RECHECK_DELAYS[Math.min(Math.max(attempts, 1), RECHECK_DELAYS.length) - 1];
}

/**
 * Nothing is lost to a ban, an outage or a file AniDB did not know yet: a minute after start, every 15 minutes and
 * whenever a ban lifts, files that were never looked up or are due again (backing off from 1 hour to a week) are
 * queued for a lookup, and linked anime without stored data or series are queued for download. As often as
 * `AniDb.Anime_UpdateFrequency` says (at most daily), AniDB is asked over UDP which anime changed since the last
 * check (`UPDATED`), and only the collection's anime among them are downloaded again: a refresh costs one HTTP
 * request per changed anime, not one per anime of the collection.
 */
export class MetadataScheduler {
  private timer: NodeJS.Timeout | null = null;
  private firstCheck: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly store: MetadataSchedulerStore;

  constructor(
    private readonly deps: {
      /** The scheduler's queries run in its own store over this database (tests build schedulers from it too). */
      db: Kysely<Database>;
      settings: SettingsService;
      anidb: AniDBConnection;
      fileMatching: FileMatching;
      animeImport: AnimeImport;
      bus: EventBus;
      logger: Logger;
      now?: () => number;
    },
  ) {
    this.store = new MetadataSchedulerStore(deps.db);
    const onBanChange = (state: { Value: boolean }) => {
      if (!state.Value && this.timer) void this.check();
    };
    deps.bus.on('anidb:udp', onBanChange);
    deps.bus.on('anidb:http', onBanChange);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), TICK_MS);
    this.timer.unref();
    this.firstCheck = setTimeout(() => void this.check(), FIRST_CHECK_DELAY_MS);
    this.firstCheck.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.firstCheck) clearTimeout(this.firstCheck);
    this.timer = null;
    this.firstCheck = null;
  }

  /** One pass; concurrent calls share it. Resolves with what was queued. */
  check(): Promise<void> {
    this.running ??= this.pass()
      .catch((error) => this.deps.logger.warn({ err: error }, 'The scheduled AniDB check failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    const [udp, http] = this.deps.anidb.states();
    let files = 0;
    let anime = 0;
    const { Username, Password } = this.deps.settings.current.AniDb;
    const udpUsable = !udp.Value && !!Username && !!Password;
    if (!http.Value) {
      for (const animeId of await this.animeNeedingData()) if (await this.deps.animeImport.queue(animeId)) anime += 1;
      if (udpUsable)
        for (const animeId of await this.changedAnime()) if (await this.deps.animeImport.queue(animeId, { force: true })) anime += 1;
    }
    if (udpUsable) {
      const due = await this.filesDueForLookup();
      // Thousands after a big import: one insert each took 1.6 s of round trips on PostgreSQL and held every request
      // on SQLite (4.8 s after a 100,000-file Shoko import), so they go in slices of multi-row inserts, requests served
      // between slices.
      for (let i = 0; i < due.length; i += LOOKUPS_PER_TURN) {
        if (i) await nextTurn();
        files += await this.deps.fileMatching.queueMany(due.slice(i, i + LOOKUPS_PER_TURN));
      }
    }
    if (files || anime) this.deps.logger.info(`Scheduled AniDB check: ${files} file lookup(s) and ${anime} anime download(s) queued`);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Anime that linked files point at but that have no stored data or no series yet. */
  private async animeNeedingData(): Promise<number[]> {
    return this.store.linkedAnimeWithoutSeries();
  }

  /**
   * The collection's anime AniDB changed since the last `UPDATED` check, once the check is due by
   * `AniDb.Anime_UpdateFrequency` (6 h and 12 h act as daily: AniDB allows one request per anime a day). The first
   * check reaches back to the oldest download of the collection. A failed check is tried again on the next pass.
   */
  private async changedAnime(): Promise<number[]> {
    const frequency = UPDATE_FREQUENCY_MS[this.deps.settings.current.AniDb.Anime_UpdateFrequency] ?? null;
    if (frequency === null) return [];
    const now = this.now();
    const last = await this.store.lastCheck(UPDATED_CHECK);
    if (last && now - Date.parse(last) < Math.max(frequency, ANIME_MIN_REQUEST_INTERVAL_MS)) return [];
    const since = last ?? (await this.store.oldestCollectionFetch());
    if (!since) {
      // Nothing in the collection yet: later checks start from here.
      await this.store.saveCheck(UPDATED_CHECK, new Date(now).toISOString());
      return [];
    }
    let changed: Awaited<ReturnType<typeof updatedAnimeSince>>;
    try {
      changed = await updatedAnimeSince(this.deps.anidb.udp(), (Date.parse(since) - UPDATED_OVERLAP_MS) / 1000);
    } catch (error) {
      this.deps.logger.warn(`Asking AniDB which anime changed failed; trying again later: ${(error as Error).message}`);
      return [];
    }
    await this.store.saveCheck(UPDATED_CHECK, new Date(changed.complete ? now : changed.checkedUpTo * 1000).toISOString());
    const ours = await this.store.collectionAnimeAmong(changed.animeIds);
    this.deps.logger.info(
      `AniDB reports ${changed.animeIds.length} anime changed since ${since}; ${ours.length} of them are in the collection`,
    );
    return ours;
  }

  /** Hashed, not ignored files without links whose last lookup is old enough (or that were never looked up). */
  private async filesDueForLookup(): Promise<number[]> {
    const now = this.now();
    return (await this.store.unlinkedFilesWithLookups())
      .filter((row) => !row.looked_up_at || Date.parse(row.looked_up_at) + recheckDelay(row.lookup_attempts ?? 0) <= now)
      .map((row) => row.id);
  }
}
