import type { SeriesAutoMatchSettings } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { applyPatch } from '../../http/json-patch.js';
import { badRequest, textError, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import type { TmdbService } from '../tmdb/index.js';
import { ANIDB_NOT_FOUND_FOR_SERIES } from './series-catalog.service.js';
import type { SeriesCatalogStore } from './series-catalog.store.js';
import type { SeriesAccess } from './series-access.js';
import type { SeriesStore } from './series.store.js';

export const TRAKT_NOT_LINKED = 'Trakt account is not linked!';
export const TMDB_LINK_NOT_FOUND = 'No TMDB entry for the given seriesID';

/**
 * Changes to one series outside its images and votes (contract §5.1, §5.10): the title override (the series' name
 * everywhere, and the names of the groups that follow it), the per-series auto-match switches, and the per-series
 * Trakt syncs.
 */
export class SeriesEditing {
  constructor(
    private readonly deps: {
      access: SeriesAccess;
      store: SeriesStore;
      catalog: Pick<SeriesCatalogStore, 'animeExists'>;
      /** The groups domain's recount of a group's figures, given at wiring (groups depend on series, not back). */
      groups: { recalculate(groupId: number): Promise<void> };
      tmdb: Pick<TmdbService, 'linkedShowIds' | 'linkedMovieIds'>;
      settings: Pick<SettingsService, 'current'>;
      bus: EventBus;
      /** Queues the Trakt send or get of one anime (integrations domain). */
      queueTraktSync(direction: 'send' | 'get', animeId: number): Promise<void>;
    },
  ) {}

  private async allowed(userId: number | null, seriesId: number) {
    return this.deps.access.allowedSeries(await this.deps.access.viewer(userId), seriesId);
  }

  /** POST Series/{id}/OverrideTitle: an empty title removes the override; groups named after the series follow. */
  async overrideTitle(userId: number | null, seriesId: number, title: string): Promise<void> {
    const series = await this.allowed(userId, seriesId);
    const next = title === '' ? null : title;
    if ((await this.deps.store.titleOverride(series.id)) === next) return;
    await this.deps.store.setTitleOverride(series.id, next);
    // Groups without a custom name carry their main series' name, up to the top-level group.
    for (const groupId of await this.deps.store.groupChain(series.group_id)) await this.deps.groups.recalculate(groupId);
    this.deps.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: { Source: 'User', Reason: 'Updated', SeriesID: series.anime_id, ShokoSeriesIDs: [series.id], Episodes: [] },
    });
  }

  async autoMatchSettings(userId: number | null, seriesId: number): Promise<SeriesAutoMatchSettings> {
    const series = await this.allowed(userId, seriesId);
    return { TMDB: !(await this.deps.store.tmdbAutoMatchDisabled(series.id)) };
  }

  /** PUT Series/{id}/AutoMatchSettings. */
  async setAutoMatchSettings(userId: number | null, seriesId: number, settings: SeriesAutoMatchSettings): Promise<SeriesAutoMatchSettings> {
    const series = await this.allowed(userId, seriesId);
    await this.deps.store.setTmdbAutoMatchDisabled(series.id, !settings.TMDB);
    return { TMDB: settings.TMDB };
  }

  /** PATCH Series/{id}/AutoMatchSettings: JSON Patch over the current settings; `"true"`/`"false"` strings are read as booleans. */
  async patchAutoMatchSettings(userId: number | null, seriesId: number, operations: unknown): Promise<SeriesAutoMatchSettings> {
    const current = await this.autoMatchSettings(userId, seriesId);
    const patched = applyPatch<Record<string, unknown>>({ ...current }, operations, 'AutoMatchSettings');
    let tmdb = patched.TMDB;
    if (typeof tmdb === 'string' && /^(true|false)$/i.test(tmdb)) tmdb = tmdb.toLowerCase() === 'true';
    if (typeof tmdb !== 'boolean') throw validationError('TMDB', `The value '${String(tmdb)}' is not valid for TMDB.`);
    return this.setAutoMatchSettings(userId, seriesId, { TMDB: tmdb });
  }

  /** Whether the TMDB auto-match may link the anime's series (true when the anime has no series). */
  async tmdbAutoMatchAllowed(animeId: number): Promise<boolean> {
    return !(await this.deps.store.tmdbAutoMatchDisabledForAnime(animeId));
  }

  /**
   * POST Series/{id}/Trakt/SendWatchStates and …/GetWatchStates: Trakt must be linked, the series visible, stored on
   * AniDB and linked to TMDB (Trakt finds it by its TMDB ids); then the series is linked on Trakt and its watched
   * states sent or fetched by a queued job.
   */
  async traktSync(userId: number | null, seriesId: number, direction: 'send' | 'get'): Promise<void> {
    const trakt = this.deps.settings.current.TraktTv;
    if (!trakt.Enabled || !trakt.AuthToken) throw badRequest(TRAKT_NOT_LINKED);
    const series = await this.allowed(userId, seriesId);
    if (!(await this.deps.catalog.animeExists(series.anime_id))) throw textError(500, ANIDB_NOT_FOUND_FOR_SERIES);
    const [shows, movies] = await Promise.all([
      this.deps.tmdb.linkedShowIds(series.anime_id),
      this.deps.tmdb.linkedMovieIds(series.anime_id),
    ]);
    if (!shows.length && !movies.length) throw validationError('Body', TMDB_LINK_NOT_FOUND);
    await this.deps.queueTraktSync(direction, series.anime_id);
  }
}
