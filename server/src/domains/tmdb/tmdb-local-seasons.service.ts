/**
 * DESIGN: reads of the locally stored TMDB seasons (of the default ordering: numeric ids; of an alternate ordering:
 * 24-hex ids) and episodes, one by one and their sub-resources (Tmdb/Season/**, Tmdb/Episode/**). Per-season and
 * per-episode credits and per-season translations are not stored by this server: those answer empty lists.
 */
import {
  AlternateOrderingType,
  type ListResult,
  type TmdbEpisode,
  type TmdbEpisodeOrderingInformation,
  type TmdbSeason,
  type TmdbShow,
} from '@shoko-ts/contract';
import { notFound, validationError } from '../../http/problem.js';
import { includeOnly } from '../../http/list-query.js';
import { episodeCrossReference, toTmdbEpisode } from './tmdb-models.js';
import { daysOfWeek, imagesOf, inLanguages, pageOf, yearlySeasons } from './tmdb-local-models.js';
import { overviewsOf, titlesOf } from './tmdb-models.js';
import type { LinkedIds, TmdbLocalDeps, TmdbLocalService } from './tmdb-local.service.js';
import { includeSet } from './tmdb.service.js';
import type { EpisodeRow, SeasonRow } from './tmdb.store.js';

export const SEASON_NOT_FOUND = 'A TMDB.Season by the given `seasonID` was not found.';
export const SEASON_NOT_FOUND_BY_EPISODE = 'A TMDB.Season by the given `episodeID` was not found.';
export const SHOW_NOT_FOUND_BY_SEASON = 'A TMDB.Show by the given `seasonID` was not found';
export const SHOW_NOT_FOUND_BY_EPISODE = 'A TMDB.Show by the given `episodeID` was not found';
export const EPISODE_NOT_FOUND = 'A TMDB.Episode by the given `episodeID` was not found.';

const HEX_ID = /^[a-f0-9]{24}$/;
/** The contract's ordering type names, in TMDB's episode group type order (0–7). */
const ORDERING_TYPE_NAMES = AlternateOrderingType.anyOf.map((literal) => String(literal.const));

type Placement = { orderingId: string; seasonId: string; seasonNumber: number; episodeNumber: number } | null;

/** A season of either kind with the episodes in it (each with its placement). */
interface ResolvedSeason {
  showId: number;
  orderingId: string | null;
  row: SeasonRow | null;
  model: Omit<TmdbSeason, 'Titles' | 'Overviews' | 'Images' | 'Cast' | 'Crew' | 'DaysOfWeek' | 'YearlySeasons'>;
  episodes: { row: EpisodeRow; placement: Placement }[];
}

export class TmdbLocalSeasons {
  constructor(
    private readonly deps: TmdbLocalDeps,
    private readonly local: TmdbLocalService,
  ) {}

  private async resolve(seasonId: string): Promise<ResolvedSeason> {
    if (HEX_ID.test(seasonId)) {
      const placed = await this.deps.local.orderingSeasonEpisodes(seasonId);
      if (!placed.length) throw notFound(SEASON_NOT_FOUND);
      const first = placed[0];
      const times = await this.deps.local.orderingTimes(first.ordering_id);
      const rows = new Map((await this.deps.store.episodesByIds(placed.map((p) => p.episode_id))).map((r) => [r.id, r]));
      return {
        showId: first.show_id,
        orderingId: first.ordering_id,
        row: null,
        model: {
          ID: seasonId,
          ShowID: first.show_id,
          AlternateOrderingID: first.ordering_id,
          Title: first.season_name,
          Overview: '',
          SeasonNumber: first.season_number,
          EpisodeCount: placed.length,
          HiddenEpisodeCount: 0,
          IsLocked: false,
          CreatedAt: times?.created_at ?? '',
          LastUpdatedAt: times?.updated_at ?? '',
        },
        episodes: placed.flatMap((p) => {
          const row = rows.get(p.episode_id);
          if (!row) return [];
          const placement = { orderingId: p.ordering_id, seasonId, seasonNumber: p.season_number, episodeNumber: p.episode_number };
          return [{ row, placement }];
        }),
      };
    }
    const row = /^\d{1,9}$/.test(seasonId) ? await this.deps.local.season(Number(seasonId)) : undefined;
    if (!row) throw notFound(SEASON_NOT_FOUND);
    const episodes = await this.deps.local.episodesOfSeason(row.id);
    return {
      showId: row.show_id,
      orderingId: null,
      row,
      model: {
        ID: String(row.id),
        ShowID: row.show_id,
        AlternateOrderingID: String(row.show_id),
        Title: row.title,
        Overview: row.overview,
        SeasonNumber: row.season_number,
        EpisodeCount: episodes.length,
        HiddenEpisodeCount: 0,
        IsLocked: false,
        CreatedAt: row.created_at,
        LastUpdatedAt: row.updated_at,
      },
      episodes: episodes.map((e) => ({ row: e, placement: null })),
    };
  }

  private async seasonModel(season: ResolvedSeason, include: Set<string>): Promise<TmdbSeason> {
    const aired = season.episodes.map((e) => e.row.aired_at);
    const images = include.has('Images') ? await this.seasonImagesOf(season, false) : undefined;
    return {
      ...season.model,
      ...(include.has('Titles') ? { Titles: [] } : {}),
      ...(include.has('Overviews') ? { Overviews: [] } : {}),
      ...(images ? { Images: images } : {}),
      ...(include.has('Cast') && !season.orderingId ? { Cast: [] } : {}),
      ...(include.has('Crew') && !season.orderingId ? { Crew: [] } : {}),
      ...(include.has('DaysOfWeek') ? { DaysOfWeek: daysOfWeek(aired) } : {}),
      ...(include.has('YearlySeasons') ? { YearlySeasons: yearlySeasons(aired) } : {}),
    };
  }

  private async seasonImagesOf(season: ResolvedSeason, includeDisabled: boolean) {
    const rows = season.row ? await this.deps.local.images('Season', [season.row.id]) : [];
    return imagesOf(this.deps.images, rows, includeDisabled);
  }

  async season(seasonId: string, include: string[] | undefined): Promise<TmdbSeason> {
    return this.seasonModel(await this.resolve(seasonId), includeSet(include));
  }

  /** Tmdb/Show/{id}/Season: the seasons of the requested (else the preferred) ordering. */
  async seasonsOfShow(
    showId: number,
    query: { include?: string[]; alternateOrderingID?: string; page: number; pageSize: number },
  ): Promise<ListResult<TmdbSeason>> {
    const show = await this.deps.service.show(showId, new Set(), query.alternateOrderingID || undefined);
    const include = includeSet(query.include);
    let ids: string[];
    if (show.AlternateOrderingID === String(showId)) {
      ids = (await this.deps.store.seasonsOfShow(showId)).map((s) => String(s.id));
    } else {
      const placed = await this.deps.store.orderingEpisodes(show.AlternateOrderingID);
      ids = [...new Map(placed.map((p) => [p.season_id, p.season_number])).entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    }
    return pageOf(ids, query.page, query.pageSize, async (id) => this.seasonModel(await this.resolve(id), include));
  }

  async seasonTitles(seasonId: string, languages: string[]) {
    await this.resolve(seasonId);
    return inLanguages([], languages);
  }

  async seasonOverviews(seasonId: string, languages: string[]) {
    await this.resolve(seasonId);
    return inLanguages([], languages);
  }

  async seasonImages(seasonId: string, includeDisabled: boolean) {
    return this.seasonImagesOf(await this.resolve(seasonId), includeDisabled);
  }

  /** Season credits are not stored (only the show's): an empty list for a known season. */
  async seasonCredits(seasonId: string): Promise<never[]> {
    await this.resolve(seasonId);
    return [];
  }

  async seasonYearlySeasons(seasonId: string) {
    return yearlySeasons((await this.resolve(seasonId)).episodes.map((e) => e.row.aired_at));
  }

  async seasonDaysOfWeek(seasonId: string) {
    return daysOfWeek((await this.resolve(seasonId)).episodes.map((e) => e.row.aired_at));
  }

  async showOfSeason(seasonId: string, include: string[] | undefined): Promise<TmdbShow> {
    const season = await this.resolve(seasonId);
    if (!(await this.deps.store.show(season.showId))) throw notFound(SHOW_NOT_FOUND_BY_SEASON);
    return this.deps.service.show(season.showId, includeSet(include), season.orderingId ?? undefined);
  }

  async episodesOfSeason(
    seasonId: string,
    query: { include?: string[]; includeHidden?: string; page: number; pageSize: number },
  ): Promise<ListResult<TmdbEpisode>> {
    const hidden = includeOnly(query.includeHidden, 'false', 'includeHidden');
    const season = await this.resolve(seasonId);
    if (!(await this.deps.store.show(season.showId))) throw notFound(SHOW_NOT_FOUND_BY_SEASON);
    const include = includeSet(query.include);
    // No episode is stored as hidden: `only` lists nothing.
    const episodes = hidden === 'only' ? [] : season.episodes;
    return pageOf(episodes, query.page, query.pageSize, (e) => this.episodeModel(e.row, e.placement, include));
  }

  async seasonLinks(seasonId: string): Promise<LinkedIds> {
    const season = await this.resolve(seasonId);
    const links = await this.deps.local.episodeLinksOfEpisodes(season.episodes.map((e) => e.row.id));
    return this.local.linked(
      links.map((l) => l.anime_id),
      links.map((l) => l.anidb_episode_id),
    );
  }

  // ── episodes ──────────────────────────────────────────────────────────────────────────────

  private async episodeRow(episodeId: number): Promise<EpisodeRow> {
    const row = await this.deps.local.episode(episodeId);
    if (!row) throw notFound(EPISODE_NOT_FOUND);
    return row;
  }

  /** Where the episode sits in the requested (else the show's preferred) ordering; null = the default seasons. */
  private async placementOf(row: EpisodeRow, requested: string | undefined): Promise<Placement> {
    const show = await this.deps.store.show(row.show_id);
    if (!show) throw notFound(SHOW_NOT_FOUND_BY_EPISODE);
    let orderingId = requested?.toLowerCase() === 'default' ? String(show.id) : requested || show.preferred_ordering_id || String(show.id);
    if (orderingId === String(show.id)) return null;
    if (!HEX_ID.test(orderingId)) throw validationError('alternateOrderingID', 'Invalid alternateOrderingID for show.');
    const placed = (await this.deps.local.orderingPlacementsOfEpisode(row.id)).find((p) => p.ordering_id === orderingId);
    if (!placed) {
      if (requested) throw validationError('alternateOrderingID', 'Invalid alternateOrderingID for episode.');
      orderingId = String(show.id);
      return null;
    }
    return { orderingId, seasonId: placed.season_id, seasonNumber: placed.season_number, episodeNumber: placed.episode_number };
  }

  private async episodeModel(row: EpisodeRow, placement: Placement, include: Set<string>): Promise<TmdbEpisode> {
    const crossReferences = include.has('CrossReferences')
      ? (await this.deps.local.episodeLinksOfEpisodes([row.id])).map(episodeCrossReference)
      : undefined;
    const model = toTmdbEpisode(row, placement, { crossReferences });
    return {
      ...model,
      ...(include.has('Titles') ? { Titles: titlesOf(row) } : {}),
      ...(include.has('Overviews') ? { Overviews: overviewsOf(row) } : {}),
    };
  }

  async episode(episodeId: number, query: { include?: string[]; alternateOrderingID?: string }): Promise<TmdbEpisode> {
    const row = await this.episodeRow(episodeId);
    return this.episodeModel(row, await this.placementOf(row, query.alternateOrderingID), includeSet(query.include));
  }

  async episodeTitles(episodeId: number, languages: string[]) {
    return inLanguages(titlesOf(await this.episodeRow(episodeId)), languages);
  }

  async episodeOverviews(episodeId: number, languages: string[]) {
    return inLanguages(overviewsOf(await this.episodeRow(episodeId)), languages);
  }

  async episodeImages(episodeId: number, includeDisabled: boolean) {
    await this.episodeRow(episodeId);
    return imagesOf(this.deps.images, await this.deps.local.images('Episode', [episodeId]), includeDisabled, true);
  }

  /** Episode credits are not stored (only the show's): an empty list for a known episode. */
  async episodeCredits(episodeId: number): Promise<never[]> {
    await this.episodeRow(episodeId);
    return [];
  }

  async episodeCrossReferences(episodeId: number) {
    await this.episodeRow(episodeId);
    return (await this.deps.local.episodeLinksOfEpisodes([episodeId])).map(episodeCrossReference);
  }

  async showOfEpisode(episodeId: number, query: { include?: string[]; alternateOrderingID?: string }): Promise<TmdbShow> {
    const row = await this.episodeRow(episodeId);
    if (!(await this.deps.store.show(row.show_id))) throw notFound(SHOW_NOT_FOUND_BY_EPISODE);
    return this.deps.service.show(row.show_id, includeSet(query.include), query.alternateOrderingID || undefined);
  }

  async seasonOfEpisode(episodeId: number, query: { include?: string[]; alternateOrderingID?: string }): Promise<TmdbSeason> {
    const row = await this.episodeRow(episodeId);
    const placement = await this.placementOf(row, query.alternateOrderingID);
    const seasonId = placement ? placement.seasonId : String(row.season_id);
    const season = await this.resolve(seasonId).catch(() => null);
    if (!season) throw notFound(SEASON_NOT_FOUND_BY_EPISODE);
    return this.seasonModel(season, includeSet(query.include));
  }

  /** Tmdb/Episode/{id}/Ordering: the default seasons first, then each alternate ordering by type and name. */
  async episodeOrderings(episodeId: number, requested: string | undefined): Promise<TmdbEpisodeOrderingInformation[]> {
    const row = await this.episodeRow(episodeId);
    const show = await this.deps.store.show(row.show_id);
    if (!show) throw notFound(SHOW_NOT_FOUND_BY_EPISODE);
    const defaultId = String(show.id);
    const wanted = requested?.toLowerCase() === 'default' ? defaultId : requested || show.preferred_ordering_id || defaultId;
    if (wanted !== defaultId && !HEX_ID.test(wanted)) throw validationError('alternateOrderingID', 'Invalid alternateOrderingID for show.');
    const placements = await this.deps.local.orderingPlacementsOfEpisode(row.id);
    if (wanted !== defaultId && !placements.some((p) => p.ordering_id === wanted)) {
      throw validationError('alternateOrderingID', 'Invalid alternateOrderingID for episode.');
    }
    const orderings = new Map((await this.deps.store.orderingsOfShow(show.id)).map((o) => [o.id, o]));
    const season = await this.deps.local.season(row.season_id);
    const preferred = show.preferred_ordering_id;
    const alternates = placements.map((p) => {
      const ordering = orderings.get(p.ordering_id);
      return {
        OrderingID: p.ordering_id,
        OrderingType: (ORDERING_TYPE_NAMES[ordering?.type ?? 0] ?? 'Unknown') as TmdbEpisodeOrderingInformation['OrderingType'],
        OrderingName: ordering?.name ?? '<unknown name>',
        SeasonID: p.season_id,
        SeasonName: p.season_name,
        SeasonNumber: p.season_number,
        EpisodeNumber: p.episode_number,
        IsDefault: false,
        IsPreferred: preferred === p.ordering_id,
        InUse: wanted === p.ordering_id,
      };
    });
    alternates.sort(
      (a, b) =>
        ORDERING_TYPE_NAMES.indexOf(a.OrderingType!) - ORDERING_TYPE_NAMES.indexOf(b.OrderingType!) ||
        (a.OrderingName < b.OrderingName ? -1 : a.OrderingName > b.OrderingName ? 1 : 0),
    );
    return [
      {
        OrderingID: defaultId,
        OrderingName: 'Seasons',
        SeasonID: String(row.season_id),
        SeasonName: season?.title ?? '<unknown name>',
        SeasonNumber: row.season_number,
        EpisodeNumber: row.episode_number,
        IsDefault: true,
        IsPreferred: !preferred || preferred === defaultId,
        InUse: wanted === defaultId,
      },
      ...alternates,
    ];
  }

  async episodeLinks(episodeId: number): Promise<LinkedIds> {
    await this.episodeRow(episodeId);
    const links = await this.deps.local.episodeLinksOfEpisodes([episodeId]);
    return this.local.linked(
      links.map((l) => l.anime_id),
      links.map((l) => l.anidb_episode_id),
    );
  }
}
