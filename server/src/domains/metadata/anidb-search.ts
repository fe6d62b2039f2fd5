import type { AnidbAnimeHit, AnidbEpisode, AnidbHitTitle } from '@shoko-ts/contract';
import { MAX_REQUEST_INTEGER } from '../../http/integer-bounds.js';
import { notFound, textError } from '../../http/problem.js';
import { titleScore, type AniDBTitlesDump, type DumpAnime } from '../../providers/anidb/titles/titles-dump.js';
import { normaliseTitle } from '../../providers/tmdb/title-similarity.js';
import { anidbEpisodeModel } from '../episodes/index.js';
import { anidbTitleModel } from '../series/index.js';
import type { AniDBSearchStore } from './anidb-search.store.js';

export type IncludeOnly = 'true' | 'false' | 'only';

export interface AnidbEpisodeQuery {
  userId: number;
  page: number;
  pageSize: number;
  includeMissing: IncludeOnly;
  includeUnaired: IncludeOnly;
  includeHidden: IncludeOnly;
  includeWatched: IncludeOnly;
  types: string[];
  search?: string;
  fuzzy: boolean;
}

const poster = (animeId: number, available: boolean) => ({
  ID: animeId,
  Type: 'Poster',
  Source: 'AniDB',
  LanguageCode: null,
  RelativeFilepath: available ? `/${animeId}` : null,
  Preferred: false,
  Disabled: false,
  Width: null,
  Height: null,
});

const toTitles = (titles: Array<{ type: string; language: string; value: string }>, shown: string): AnidbHitTitle[] =>
  titles.map((t) => anidbTitleModel(t, shown));

export const ANIDB_ANIME_FORBIDDEN = 'Accessing AnidbAnime is not allowed for the current user';

const keep = (filter: IncludeOnly, matches: boolean) => (filter === 'only' ? matches : filter === 'false' ? !matches : true);

/**
 * The console's AniDB series search (titles dump plus local AniDB data) and the AniDB views of an anime and its
 * episodes that the link and add-series screens use.
 */
export class AniDBSearch {
  constructor(
    private readonly deps: {
      store: AniDBSearchStore;
      dump: AniDBTitlesDump;
      /** Whether a poster of the anime is stored locally. */
      hasPoster?: (animeId: number) => boolean;
    },
  ) {}

  /** The AniDB tag ids hidden from a user (series domain), once wired: anime carrying one are not shown to them. */
  hiddenTagsOf: ((userId: number | null) => Promise<number[]>) | null = null;

  /** The anime hidden from this user among those stored locally (tags are known only for those). */
  private async hiddenAnime(userId: number | null): Promise<Set<number>> {
    const tags = this.hiddenTagsOf ? await this.hiddenTagsOf(userId) : [];
    return this.deps.store.animeWithTags(tags);
  }

  /** The 403 of an anime hidden from the user. */
  private async checkAnime(userId: number | null, animeId: number): Promise<void> {
    if ((await this.hiddenAnime(userId)).has(animeId)) throw textError(403, ANIDB_ANIME_FORBIDDEN);
  }

  async search(
    query: string,
    options: {
      fuzzy: boolean;
      local?: boolean;
      includeTitles: boolean;
      searchById: boolean;
      page: number;
      pageSize: number;
      userId?: number | null;
    },
  ): Promise<{ Total: number; List: AnidbAnimeHit[] }> {
    await this.deps.dump.ready();
    const text = query.trim();
    let ids: number[];
    if (options.searchById && /^\d+$/.test(text)) {
      const id = Number(text);
      // AniDB ids are 32-bit: a longer number names no anime (and would overflow PostgreSQL's integer column).
      const known = id <= MAX_REQUEST_INTEGER && ((await this.localAnime([id])).length || this.deps.dump.byId(id));
      ids = known ? [id] : [];
    } else if (!text) {
      ids = this.deps.dump.all().map((a) => a.id);
    } else {
      const scores = new Map(this.deps.dump.search(text, { fuzzy: options.fuzzy }).map((m) => [m.anime.id, m.score]));
      // Anime stored locally but missing from an older dump are searched by their own titles.
      for (const row of await this.localTitleMatches(text, options.fuzzy)) if (!scores.has(row.id)) scores.set(row.id, row.score);
      ids = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
    }
    const hidden = await this.hiddenAnime(options.userId ?? null);
    if (hidden.size) ids = ids.filter((id) => !hidden.has(id));
    if (options.local !== undefined) {
      const withSeries = await this.seriesByAnime(ids);
      ids = ids.filter((id) => withSeries.has(id) === options.local);
    }
    const pageIds = options.pageSize === 0 ? ids : ids.slice((options.page - 1) * options.pageSize, options.page * options.pageSize);
    return { Total: ids.length, List: await this.models(pageIds, options.includeTitles) };
  }

  async anime(animeId: number, userId: number | null = null): Promise<AnidbAnimeHit> {
    const [model] = await this.models([animeId], true, { localOnly: true });
    if (!model) throw notFound('No AnidbAnime entry for the given anidbID');
    await this.checkAnime(userId, animeId);
    return model;
  }

  async episodes(animeId: number, query: AnidbEpisodeQuery): Promise<{ Total: number; List: AnidbEpisode[] }> {
    if (!(await this.localAnime([animeId])).length) throw notFound('No AnidbAnime entry for the given anidbID');
    await this.checkAnime(query.userId || null, animeId);
    const rows = await this.deps.store.episodesOfAnime(animeId);
    const withFiles = await this.episodesWithFiles(rows.map((r) => r.id));
    const watched = await this.watchedEpisodes(
      query.userId,
      rows.flatMap((r) => (r.shokoId ? [r.shokoId] : [])),
    );
    const today = new Date().toISOString().slice(0, 10);
    const list = rows.filter((row) => {
      if (query.types.length && !query.types.includes(row.type)) return false;
      const local = row.shokoId !== null;
      const hasFiles = withFiles.has(row.id);
      const aired = !!row.air_date && row.air_date <= today;
      return (
        keep(query.includeHidden, local && row.is_hidden === 1) &&
        keep(query.includeMissing, local && !hasFiles && aired) &&
        keep(query.includeUnaired, local && !hasFiles && !aired) &&
        keep(query.includeWatched, local && watched.has(row.shokoId!))
      );
    });
    const models = list.map((row) => anidbEpisodeModel(row, { romajiTitle: false }));
    let ordered: AnidbEpisode[];
    if (query.search?.trim()) {
      const needle = normaliseTitle(query.search);
      ordered = models
        .map((m) => ({ m, score: Math.max(...m.Titles.map((t) => titleScore(normaliseTitle(t.Name), needle, query.fuzzy)), 0) }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((x) => x.m);
    } else {
      const typeOrder = ['Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other', 'Unknown'];
      ordered = models.sort((a, b) => typeOrder.indexOf(a.Type) - typeOrder.indexOf(b.Type) || a.EpisodeNumber - b.EpisodeNumber);
    }
    const page = query.pageSize === 0 ? ordered : ordered.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
    return { Total: ordered.length, List: page };
  }

  private async models(ids: number[], includeTitles: boolean, options: { localOnly?: boolean } = {}): Promise<AnidbAnimeHit[]> {
    if (!ids.length) return [];
    const local = new Map((await this.localAnime(ids)).map((row) => [row.id, row]));
    const titles = await this.localTitles([...local.keys()]);
    const series = await this.seriesByAnime(ids);
    const models: AnidbAnimeHit[] = [];
    for (const id of ids) {
      const row = local.get(id);
      if (row) {
        const all = titles.get(id) ?? [];
        models.push({
          ID: id,
          ShokoID: series.get(id) ?? null,
          Type: row.type,
          Title: row.main_title,
          ...(includeTitles ? { Titles: toTitles(all, row.main_title) } : {}),
          Description: row.description,
          AirDate: row.air_date,
          EndDate: row.end_date,
          Restricted: row.restricted === 1,
          Poster: poster(id, this.deps.hasPoster?.(id) ?? false),
          EpisodeCount: row.episode_count,
          Rating: { Value: row.rating, MaxValue: 1000, Source: 'AniDB', Votes: row.rating_votes, Type: null },
        });
        continue;
      }
      if (options.localOnly) continue;
      const dump: DumpAnime | null = this.deps.dump.byId(id);
      if (!dump) continue;
      const main = dump.titles.find((t) => t.type === 'main')?.value ?? dump.titles[0].value;
      models.push({
        ID: id,
        ShokoID: null,
        Type: 'Unknown',
        Title: main,
        ...(includeTitles ? { Titles: toTitles(dump.titles, main) } : {}),
        AirDate: null,
        EndDate: null,
        Restricted: false,
        Poster: poster(id, false),
        EpisodeCount: null,
      });
    }
    return models;
  }

  private localAnime(ids: number[]) {
    return this.deps.store.anime(ids);
  }

  private async localTitles(ids: number[]): Promise<Map<number, Array<{ type: string; language: string; value: string }>>> {
    const result = new Map<number, Array<{ type: string; language: string; value: string }>>();
    if (!ids.length) return result;
    for (const row of await this.deps.store.titlesOfAnime(ids)) {
      const list = result.get(row.anime_id) ?? [];
      list.push(row);
      result.set(row.anime_id, list);
    }
    return result;
  }

  private async localTitleMatches(query: string, fuzzy: boolean): Promise<Array<{ id: number; score: number }>> {
    const needle = normaliseTitle(query);
    const rows = await this.deps.store.allTitles();
    const best = new Map<number, number>();
    for (const row of rows) {
      const score = titleScore(normaliseTitle(row.value), needle, fuzzy);
      if (score > (best.get(row.anime_id) ?? 0)) best.set(row.anime_id, score);
    }
    return [...best.entries()].map(([id, score]) => ({ id, score }));
  }

  private async seriesByAnime(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.deps.store.seriesOfAnime(ids);
    return new Map(rows.map((r) => [r.anime_id, r.id]));
  }

  private async episodesWithFiles(anidbEpisodeIds: number[]): Promise<Set<number>> {
    if (!anidbEpisodeIds.length) return new Set();
    return new Set(await this.deps.store.episodesWithFiles(anidbEpisodeIds));
  }

  private async watchedEpisodes(userId: number, episodeIds: number[]): Promise<Set<number>> {
    if (!episodeIds.length) return new Set();
    return new Set(await this.deps.store.watchedEpisodes(userId, episodeIds));
  }
}
