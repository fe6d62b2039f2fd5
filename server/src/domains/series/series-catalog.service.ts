import type {
  ListResult,
  RelatedAnime,
  Series,
  SeriesListQuery,
  SeriesQuery,
  SeriesSearchOptionsQuery,
  SeriesSearchResult,
  YearlySeason,
} from '@shoko-ts/contract';
import { textError } from '../../http/problem.js';
import type { SeriesBrowseStore } from './series-browse.store.js';
import type { SettingsService } from '../settings/index.js';
import { inverseRelation, relationType, type DetailsStore, type SeriesRelation } from './details.store.js';
import type { SeriesAccess } from './series-access.js';
import type { CatalogSeriesRow, SeriesCatalogStore } from './series-catalog.store.js';
import { SeriesSearchIndex, type SearchableSeries } from './series-search.js';
import { compareMatches, matchSearchText, searchText, type SearchText, type TitleMatch } from '../../shared/title-match.js';
import type { SeriesService } from './series.service.js';

export const SERIES_NOT_FOUND_FOR_ANIDB = 'No Series entry for the given anidbID';
export const ANIDB_NOT_FOUND = 'No AnidbAnime entry for the given anidbID';
export const ANIDB_NOT_FOUND_FOR_SERIES = 'No AnidbAnime entry for the given seriesID';
export const ANIDB_FORBIDDEN = 'Accessing AnidbAnime is not allowed for the current user';

const SEASON_NAMES = ['Winter', 'Spring', 'Summer', 'Fall'] as const;

/** One page of `items`: page 1-based, pageSize 0 = everything. */
const pageOf = <T>(items: T[], page: number, pageSize: number): T[] =>
  pageSize === 0 ? items : items.slice((page - 1) * pageSize, page * pageSize);

const nameOf = (row: Pick<CatalogSeriesRow, 'title_override' | 'main_title'>) => row.title_override ?? row.main_title ?? '';

/**
 * The best match among the titles a series is searched by: its main title, its titles in the series-title languages,
 * English and Romaji, and its name. A title met twice matches the same way twice, so none is left out for that.
 */
function bestTitleMatch(series: SearchableSeries, languages: Set<string>, query: SearchText, fuzzy: boolean): TitleMatch | null {
  let best: TitleMatch | null = null;
  const consider = (title: SearchText) => {
    const match = matchSearchText(title, query, fuzzy);
    if (match && (!best || compareMatches(match, best) < 0)) best = match;
  };
  for (const title of series.titles) if (title.type === 'main' || languages.has(title.language)) consider(title.text);
  consider(series.name);
  return best;
}

/** Every yearly season from the air date to the end date (or today while airing). */
function airedSeasons(airDate: string | null, endDate: string | null, today: string): YearlySeason[] {
  if (!airDate) return [];
  const last = endDate ?? (airDate > today ? airDate : today);
  const seasons: YearlySeason[] = [];
  let year = Number(airDate.slice(0, 4));
  let quarter = Math.floor((Number(airDate.slice(5, 7)) - 1) / 3);
  const endYear = Number(last.slice(0, 4));
  const endQuarter = Math.floor((Number(last.slice(5, 7)) - 1) / 3);
  while (year < endYear || (year === endYear && quarter <= endQuarter)) {
    seasons.push({ Year: year, AnimeSeason: SEASON_NAMES[quarter] });
    if (++quarter === 4) {
      quarter = 0;
      year++;
    }
  }
  return seasons;
}

/** The path as Shokofin sends it: percent-escapes decoded (twice at most), either slash style, no trailing slash. */
export function folderQuery(raw: string): string {
  let text = raw;
  for (let i = 0; i < 2 && text.includes('%'); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text.replace(/\\/g, '/').replace(/\/+$/, '');
}

/**
 * The series lists outside a group or filter (contract §5.1, §5.2, §5.4): every series by name, title search, prefix
 * search, series by folder, the years and seasons aired, and the stored AniDB anime and relations.
 */
export class SeriesCatalog {
  constructor(
    private readonly deps: {
      store: SeriesCatalogStore;
      access: SeriesAccess;
      browse: Pick<SeriesBrowseStore, 'seriesModels'>;
      details: DetailsStore;
      settings: Pick<SettingsService, 'current'>;
      series: Pick<SeriesService, 'series'>;
      /** Subscribes to every change that may change a series' name or titles (the search index is dropped then). */
      onCollectionChange?: (listener: () => void) => void;
      /** How long the collection must stay unchanged before the search index is built again in the background. */
      searchIndexQuietMs?: number;
    },
  ) {
    this.searchIndex = new SeriesSearchIndex(
      { series: () => deps.store.searchSeries(), titles: (ids) => deps.store.titles(ids) },
      deps.searchIndexQuietMs ?? 2000,
    );
    deps.onCollectionChange?.(() => this.searchIndex.clear());
  }

  private readonly searchIndex: SeriesSearchIndex;

  /** Prepares the search index in the background once the server is idle, and again after each change. */
  warmSearch(): void {
    this.searchIndex.warmSoon();
  }

  /**
   * Builds the search index of the collection as it is now, at once: the last step of a bulk change that sends no
   * change while it writes (a Shoko import), whose first search spent 125 ms preparing the titles at 100,000 files.
   */
  async prepareSearch(): Promise<void> {
    this.searchIndex.clear();
    await this.searchIndex.prepare();
  }

  /** Whether a search now finds its index built for the collection as it is. */
  searchPrepared(): boolean {
    return this.searchIndex.prepared;
  }

  private async visible(userId: number | null) {
    const viewer = await this.deps.access.viewer(userId);
    return { viewer, rows: await this.deps.store.visibleSeries(viewer) };
  }

  /** GET Series: by lower-cased name, optionally only names starting with `startsWith`. */
  async list(userId: number | null, query: SeriesListQuery): Promise<ListResult<Series>> {
    const viewer = await this.deps.access.viewer(userId);
    const { total, ids } = await this.deps.store.pageOfSeriesByName(viewer, query.startsWith.toLowerCase(), query);
    return { Total: total, List: await this.deps.browse.seriesModels(ids, viewer) };
  }

  private async results(
    viewer: Awaited<ReturnType<SeriesAccess['viewer']>>,
    matches: Array<{ id: number; match: TitleMatch }>,
  ): Promise<SeriesSearchResult[]> {
    const models = new Map(
      (
        await this.deps.browse.seriesModels(
          matches.map((m) => m.id),
          viewer,
        )
      ).map((s) => [s.IDs.ID, s]),
    );
    return matches.flatMap(({ id, match }) => {
      const series = models.get(id);
      return series ? [{ ...series, ...match }] : [];
    });
  }

  /** GET Series/Search: the best `limit` matches, best first; a numeric query with `searchById` finds the series of that anime. */
  async search(userId: number | null, text: string, options: SeriesSearchOptionsQuery): Promise<SeriesSearchResult[]> {
    const query = text.trim().toLowerCase();
    if (!query || options.limit <= 0) return [];
    const viewer = await this.deps.access.viewer(userId);
    const series = await this.searchIndex.entries();
    const hidden = viewer.restrictedTags.length ? new Set(await this.deps.store.animeWithTags(viewer.restrictedTags)) : null;
    const visible = hidden ? series.filter((s) => !hidden.has(s.animeId)) : series;
    if (options.searchById && /^\d+$/.test(query)) {
      const found = visible.find((s) => s.animeId === Number(query));
      if (found)
        return this.results(viewer, [
          { id: found.id, match: { ExactMatch: true, Index: 0, Distance: 0, LengthDifference: 0, Match: String(found.animeId) } },
        ]);
    }
    const languages = new Set(['en', 'x-jat', ...this.deps.settings.current.Language.SeriesTitleLanguageOrder.map((l) => l.toLowerCase())]);
    const prepared = searchText(query);
    const matches: Array<{ id: number; match: TitleMatch }> = [];
    for (const entry of visible) {
      if (!entry.hasAnime) continue;
      const match = bestTitleMatch(entry, languages, prepared, options.fuzzy);
      if (match) matches.push({ id: entry.id, match });
    }
    matches.sort((a, b) => compareMatches(a.match, b.match) || a.id - b.id);
    return this.results(viewer, matches.slice(0, options.limit));
  }

  /** GET Series/StartsWith/{query}: series having an AniDB title that starts with the query, by that title. */
  async startsWith(userId: number | null, text: string, limit: number): Promise<SeriesSearchResult[]> {
    const query = text.toLowerCase();
    const { viewer, rows } = await this.visible(userId);
    const byAnime = new Map<number, string[]>();
    for (const title of await this.deps.store.titles(rows.map((r) => r.anime_id))) {
      const list = byAnime.get(title.anime_id) ?? [];
      list.push(title.value);
      byAnime.set(title.anime_id, list);
    }
    const matches: Array<{ id: number; match: TitleMatch }> = [];
    for (const row of rows) {
      const hit = (byAnime.get(row.anime_id) ?? []).filter((t) => t.toLowerCase().startsWith(query)).sort()[0];
      if (hit !== undefined)
        matches.push({ id: row.id, match: { ExactMatch: false, Index: 0, Distance: 0, LengthDifference: 0, Match: hit } });
    }
    matches.sort((a, b) => (a.match.Match < b.match.Match ? -1 : a.match.Match > b.match.Match ? 1 : a.id - b.id));
    return this.results(viewer, matches.slice(0, limit));
  }

  /** GET Series/PathEndsWith/{*path}: visible series with a file in a folder whose path ends with `path` (any case). */
  async pathEndsWith(userId: number | null, rawPath: string): Promise<Series[]> {
    const suffix = folderQuery(rawPath).toLowerCase();
    const { viewer, rows } = await this.visible(userId);
    const visible = new Map(rows.map((r) => [r.id, nameOf(r).toLowerCase()]));
    const found = new Set<number>();
    for (const location of await this.deps.store.locationsWithSeries()) {
      if (found.has(location.series_id) || !visible.has(location.series_id)) continue;
      const full = `${location.folder.replace(/\\/g, '/').replace(/\/+$/, '')}/${location.relative_path.replace(/\\/g, '/').replace(/^\/+/, '')}`;
      const folder = full.slice(0, full.lastIndexOf('/'));
      if (folder.toLowerCase().endsWith(suffix)) found.add(location.series_id);
    }
    const ids = [...found].sort((a, b) => (visible.get(a)! < visible.get(b)! ? -1 : visible.get(a)! > visible.get(b)! ? 1 : a - b));
    return this.deps.browse.seriesModels(ids, viewer);
  }

  /** GET Series/Years: every year a visible series aired in, ascending. */
  async years(userId: number | null): Promise<number[]> {
    const today = new Date().toISOString().slice(0, 10);
    const years = new Set<number>();
    for (const row of (await this.visible(userId)).rows)
      for (const season of airedSeasons(row.air_date, row.end_date, today)) years.add(season.Year);
    return [...years].sort((a, b) => a - b);
  }

  /** GET Series/Seasons: every yearly season a visible series aired in, by year then season. */
  async seasons(userId: number | null): Promise<YearlySeason[]> {
    const today = new Date().toISOString().slice(0, 10);
    const seen = new Map<string, YearlySeason>();
    for (const row of (await this.visible(userId)).rows)
      for (const season of airedSeasons(row.air_date, row.end_date, today)) seen.set(`${season.Year}:${season.AnimeSeason}`, season);
    return [...seen.values()].sort((a, b) => a.Year - b.Year || SEASON_NAMES.indexOf(a.AnimeSeason) - SEASON_NAMES.indexOf(b.AnimeSeason));
  }

  // ---------------------------------------------------------------- AniDB views

  /** GET Series/AniDB: stored AniDB anime the viewer may see, by lower-cased title. */
  async anidbList(userId: number | null, query: SeriesListQuery): Promise<ListResult<RelatedAnime>> {
    const viewer = await this.deps.access.viewer(userId);
    const prefix = query.startsWith.toLowerCase();
    const named = (await this.deps.store.visibleAnime(viewer))
      .map((a) => ({ id: a.id, name: a.main_title.toLowerCase() }))
      .filter((a) => !prefix || a.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const page = pageOf(named, query.page, query.pageSize);
    return { Total: named.length, List: await this.deps.details.animeModels(page.map((a) => a.id)) };
  }

  /** GET Series/AniDB/Relations: every stored relation and its reverse, by base id, related id, type. */
  async anidbRelations(query: { page: number; pageSize: number }): Promise<ListResult<SeriesRelation>> {
    const seen = new Map<string, { base: number; related: number; type: string }>();
    for (const row of await this.deps.store.relations()) {
      const type = relationType(row.relation_type);
      const forward = { base: row.anime_id, related: row.related_anime_id, type };
      const backward = { base: row.related_anime_id, related: row.anime_id, type: inverseRelation(type) };
      for (const r of [forward, backward]) seen.set(`${r.base}:${r.related}:${r.type}`, r);
    }
    const all = [...seen.values()].sort(
      (a, b) => a.base - b.base || a.related - b.related || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
    );
    const page = pageOf(all, query.page, query.pageSize);
    const series = await this.deps.store.seriesIdsOfAnime([...new Set(page.flatMap((r) => [r.base, r.related]))]);
    return {
      Total: all.length,
      List: page.map((r) => ({
        IDs: { Shoko: series.get(r.base) ?? null, AniDB: r.base },
        RelatedIDs: { Shoko: series.get(r.related) ?? null, AniDB: r.related },
        Type: r.type,
        Source: 'AniDB' as const,
      })),
    };
  }

  /** GET Series/{id}/AniDB: the series' stored AniDB anime (500 when it is missing). */
  async seriesAnidb(userId: number | null, seriesId: number): Promise<RelatedAnime> {
    const series = await this.deps.access.allowedSeries(await this.deps.access.viewer(userId), seriesId);
    const [model] = await this.deps.details.animeModels([series.anime_id]);
    if (!model) throw textError(500, ANIDB_NOT_FOUND_FOR_SERIES);
    return { ...model, ShokoID: series.id };
  }

  /** The 404 and restricted-tag (403) checks of the Series/AniDB/{anidbID}/… routes. */
  private async allowedAnime(userId: number | null, animeId: number): Promise<void> {
    if (!(await this.deps.store.animeExists(animeId))) throw textError(404, ANIDB_NOT_FOUND);
    if (!(await this.deps.access.isAnimeAllowed(await this.deps.access.viewer(userId), animeId))) throw textError(403, ANIDB_FORBIDDEN);
  }

  async anidbSimilar(userId: number | null, animeId: number) {
    await this.allowedAnime(userId, animeId);
    return this.deps.details.similar(animeId);
  }

  /** Series/AniDB/{anidbID}/Related: the anime's own relations only. */
  async anidbRelated(userId: number | null, animeId: number) {
    await this.allowedAnime(userId, animeId);
    return this.deps.details.related(animeId, true);
  }

  async anidbRelationsOf(userId: number | null, animeId: number) {
    await this.allowedAnime(userId, animeId);
    return this.deps.details.seriesRelations(animeId, false, true);
  }

  /** GET Series/AniDB/{anidbID}/Series: the series of an AniDB anime, as Series/{id} shows it. */
  async seriesOfAnime(userId: number | null, animeId: number, query: SeriesQuery): Promise<Series> {
    const series = await this.deps.store.seriesOfAnime(animeId);
    if (!series) throw textError(404, SERIES_NOT_FOUND_FOR_ANIDB);
    return this.deps.series.series(userId, series.id, query);
  }
}
