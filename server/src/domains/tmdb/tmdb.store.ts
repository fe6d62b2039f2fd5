import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  Database,
  TmdbCreditsTable,
  TmdbEpisodesTable,
  TmdbMoviesTable,
  TmdbOrderingEpisodesTable,
  TmdbOrderingsTable,
  TmdbSeasonsTable,
  TmdbShowsTable,
  XrefAnidbTmdbEpisodeTable,
} from '../../db/schema.js';
import { insertInBatches, saveMovieSnapshot, saveShowSnapshot, type MovieSnapshot, type ShowSnapshot } from './tmdb-snapshot.store.js';

export type ShowRow = Selectable<TmdbShowsTable>;
export type MovieRow = Selectable<TmdbMoviesTable>;
export type EpisodeRow = Selectable<TmdbEpisodesTable>;
export type SeasonRow = Selectable<TmdbSeasonsTable>;
export type OrderingRow = Selectable<TmdbOrderingsTable>;
export type CreditRow = Selectable<TmdbCreditsTable>;
export type EpisodeXrefRow = Selectable<XrefAnidbTmdbEpisodeTable>;
export type LinkSource = 'Automatic' | 'User';

/** The AniDB side of an anime, as the TMDB matcher needs it. */
export interface AnidbAnimeForTmdb {
  id: number;
  type: string;
  mainTitle: string;
  airDate: string | null;
  restricted: boolean;
  titles: { type: string; language: string; value: string }[];
}

export interface AnidbEpisodeForTmdb {
  id: number;
  type: string;
  number: number;
  airDate: string | null;
  titles: { language: string; value: string }[];
}

/** SQL for TMDB metadata and the AniDB ↔ TMDB cross-references. */
export class TmdbStore {
  constructor(private readonly db: Kysely<Database>) {}

  // ── metadata ───────────────────────────────────────────────────────────────────────────────

  async saveShow(snapshot: ShowSnapshot): Promise<void> {
    await saveShowSnapshot(this.db, snapshot);
  }

  async saveMovie(snapshot: MovieSnapshot): Promise<void> {
    await saveMovieSnapshot(this.db, snapshot);
  }

  show(showId: number): Promise<ShowRow | undefined> {
    return this.db.selectFrom('tmdb_shows').selectAll().where('id', '=', showId).executeTakeFirst();
  }

  movie(movieId: number): Promise<MovieRow | undefined> {
    return this.db.selectFrom('tmdb_movies').selectAll().where('id', '=', movieId).executeTakeFirst();
  }

  seasonsOfShow(showId: number): Promise<SeasonRow[]> {
    return this.db.selectFrom('tmdb_seasons').selectAll().where('show_id', '=', showId).orderBy('season_number').execute();
  }

  episodesOfShow(showId: number): Promise<EpisodeRow[]> {
    return this.db
      .selectFrom('tmdb_episodes')
      .selectAll()
      .where('show_id', '=', showId)
      .orderBy('season_number')
      .orderBy('episode_number')
      .execute();
  }

  orderingsOfShow(showId: number): Promise<OrderingRow[]> {
    return this.db.selectFrom('tmdb_orderings').selectAll().where('show_id', '=', showId).orderBy('type').orderBy('name').execute();
  }

  orderingEpisodes(orderingId: string): Promise<TmdbOrderingEpisodesTable[]> {
    return this.db
      .selectFrom('tmdb_ordering_episodes')
      .selectAll()
      .where('ordering_id', '=', orderingId)
      .orderBy('season_number')
      .orderBy('episode_number')
      .execute();
  }

  async setPreferredOrdering(showId: number, orderingId: string | null): Promise<void> {
    await this.db.updateTable('tmdb_shows').set({ preferred_ordering_id: orderingId }).where('id', '=', showId).execute();
  }

  credits(parentType: 'Show' | 'Movie', parentId: number): Promise<CreditRow[]> {
    return this.db
      .selectFrom('tmdb_credits')
      .selectAll()
      .where('parent_type', '=', parentType)
      .where('parent_id', '=', parentId)
      .orderBy('kind')
      .orderBy('ordering')
      .execute();
  }

  images(parentType: 'Show' | 'Movie', parentId: number) {
    return this.db
      .selectFrom('tmdb_images')
      .selectAll()
      .where('parent_type', '=', parentType)
      .where('parent_id', '=', parentId)
      .orderBy('id')
      .execute();
  }

  // ── cross-references ───────────────────────────────────────────────────────────────────────

  showLinksOfAnime(animeId: number) {
    return this.db.selectFrom('xref_anidb_tmdb_show').selectAll().where('anime_id', '=', animeId).orderBy('show_id').execute();
  }

  showLinksOfShow(showId: number) {
    return this.db.selectFrom('xref_anidb_tmdb_show').selectAll().where('show_id', '=', showId).orderBy('anime_id').execute();
  }

  async linkShow(animeId: number, showId: number, source: LinkSource, options: { replace?: boolean } = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (options.replace) await unlinkShows(trx, animeId, null);
      await trx
        .insertInto('xref_anidb_tmdb_show')
        .values({ anime_id: animeId, show_id: showId, source })
        .onConflict((oc) => oc.columns(['anime_id', 'show_id']).doUpdateSet({ source }))
        .execute();
    });
  }

  /** Removes the anime's link to `showId` (null = every show), with the episode links into those shows. */
  async unlinkShows(animeId: number, showId: number | null): Promise<void> {
    await this.db.transaction().execute((trx) => unlinkShows(trx, animeId, showId));
  }

  movieLinksOfAnime(animeId: number) {
    return this.db
      .selectFrom('xref_anidb_tmdb_movie')
      .selectAll()
      .where('anime_id', '=', animeId)
      .orderBy('movie_id')
      .orderBy('anidb_episode_id')
      .execute();
  }

  movieLinksOfMovie(movieId: number) {
    return this.db.selectFrom('xref_anidb_tmdb_movie').selectAll().where('movie_id', '=', movieId).execute();
  }

  async linkMovie(
    animeId: number,
    episodeId: number,
    movieId: number,
    source: LinkSource,
    options: { replace?: boolean } = {},
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (options.replace) await trx.deleteFrom('xref_anidb_tmdb_movie').where('anidb_episode_id', '=', episodeId).execute();
      await trx
        .insertInto('xref_anidb_tmdb_movie')
        .values({ anime_id: animeId, anidb_episode_id: episodeId, movie_id: movieId, source })
        .onConflict((oc) => oc.columns(['anidb_episode_id', 'movie_id']).doUpdateSet({ source }))
        .execute();
    });
  }

  async unlinkMovies(animeId: number, filter: { movieId?: number; episodeId?: number } = {}): Promise<void> {
    let query = this.db.deleteFrom('xref_anidb_tmdb_movie').where('anime_id', '=', animeId);
    if (filter.movieId) query = query.where('movie_id', '=', filter.movieId);
    if (filter.episodeId) query = query.where('anidb_episode_id', '=', filter.episodeId);
    await query.execute();
  }

  episodeLinksOfAnime(animeId: number, showId?: number): Promise<EpisodeXrefRow[]> {
    let query = this.db.selectFrom('xref_anidb_tmdb_episode').selectAll().where('anime_id', '=', animeId);
    if (showId) query = query.where('show_id', '=', showId);
    return query.orderBy('anidb_episode_id').orderBy('ordering').execute();
  }

  /**
   * Replaces the anime's episode links into `showId` (and its explicit "no link" entries) with `links`. Links the user
   * verified stay untouched unless `replaceUserLinks` (the matcher was given them as overrides and returns them
   * unchanged, so they are skipped here).
   */
  async replaceAutomaticEpisodeLinks(
    animeId: number,
    showId: number,
    links: { anidbEpisodeId: number; tmdbEpisodeId: number; rating: string }[],
    options: { replaceUserLinks?: boolean } = {},
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      let stale = trx
        .deleteFrom('xref_anidb_tmdb_episode')
        .where('anime_id', '=', animeId)
        .where((eb) => eb.or([eb('show_id', '=', showId), eb('tmdb_episode_id', '=', 0)]));
      if (!options.replaceUserLinks) stale = stale.where('rating', '!=', 'UserVerified');
      await stale.execute();
      const rows = links
        .filter((link) => link.rating !== 'UserVerified')
        .map((link) => ({
          anime_id: animeId,
          anidb_episode_id: link.anidbEpisodeId,
          show_id: link.tmdbEpisodeId ? showId : 0,
          tmdb_episode_id: link.tmdbEpisodeId,
          ordering: 0,
          rating: link.rating,
        }));
      await insertInBatches(trx, 'xref_anidb_tmdb_episode', rows);
    });
  }

  async removeEpisodeLinks(animeId: number): Promise<void> {
    await this.db.deleteFrom('xref_anidb_tmdb_episode').where('anime_id', '=', animeId).execute();
  }

  /**
   * Links set by hand, in order, in one transaction: `replace` drops the AniDB episode's other links first; a TMDB id
   * of 0 records "no link" (and drops the others). Shows of the TMDB episodes are linked (source User) when missing.
   */
  async overrideEpisodeLinks(
    animeId: number,
    mappings: { anidbEpisodeId: number; tmdbEpisodeId: number; showId: number; replace: boolean; index: number | null }[],
    options: { unsetAll: boolean },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (options.unsetAll) await trx.deleteFrom('xref_anidb_tmdb_episode').where('anime_id', '=', animeId).execute();
      for (const mapping of mappings) {
        const ofEpisode = () =>
          trx.deleteFrom('xref_anidb_tmdb_episode').where('anime_id', '=', animeId).where('anidb_episode_id', '=', mapping.anidbEpisodeId);
        if (mapping.replace || mapping.tmdbEpisodeId === 0) await ofEpisode().execute();
        else await ofEpisode().where('tmdb_episode_id', 'in', [0, mapping.tmdbEpisodeId]).execute();
        const others = await trx
          .selectFrom('xref_anidb_tmdb_episode')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('anime_id', '=', animeId)
          .where('anidb_episode_id', '=', mapping.anidbEpisodeId)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('xref_anidb_tmdb_episode')
          .values({
            anime_id: animeId,
            anidb_episode_id: mapping.anidbEpisodeId,
            show_id: mapping.showId,
            tmdb_episode_id: mapping.tmdbEpisodeId,
            ordering: mapping.index ?? Number(others.count),
            rating: 'UserVerified',
          })
          .execute();
        if (mapping.showId) {
          await trx
            .insertInto('xref_anidb_tmdb_show')
            .values({ anime_id: animeId, show_id: mapping.showId, source: 'User' })
            .onConflict((oc) => oc.columns(['anime_id', 'show_id']).doNothing())
            .execute();
        }
      }
    });
  }

  episodesByIds(ids: number[]): Promise<EpisodeRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('tmdb_episodes').selectAll().where('id', 'in', ids).execute();
  }

  // ── AniDB side (read only) ─────────────────────────────────────────────────────────────────

  async anidbAnime(animeId: number): Promise<AnidbAnimeForTmdb | null> {
    const anime = await this.db
      .selectFrom('anidb_anime')
      .select(['id', 'type', 'main_title', 'air_date', 'restricted'])
      .where('id', '=', animeId)
      .executeTakeFirst();
    if (!anime) return null;
    const titles = await this.db
      .selectFrom('anidb_anime_titles')
      .select(['type', 'language', 'value'])
      .where('anime_id', '=', animeId)
      .orderBy('id')
      .execute();
    return {
      id: anime.id,
      type: anime.type,
      mainTitle: anime.main_title,
      airDate: anime.air_date,
      restricted: anime.restricted === 1,
      titles,
    };
  }

  async anidbEpisodes(animeId: number): Promise<AnidbEpisodeForTmdb[]> {
    const rows = await this.db
      .selectFrom('anidb_episodes')
      .select(['id', 'type', 'number', 'air_date', 'titles'])
      .where('anime_id', '=', animeId)
      .orderBy('type')
      .orderBy('number')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      number: row.number,
      airDate: row.air_date,
      titles: parseJson(row.titles, []),
    }));
  }

  /** The anime this one lists as its prequels. */
  async prequelsOf(animeId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('anidb_relations')
      .select('related_anime_id')
      .where('anime_id', '=', animeId)
      .where('relation_type', '=', 'Prequel')
      .orderBy('related_anime_id')
      .execute();
    return rows.map((row) => row.related_anime_id);
  }

  /** A Shoko episode's AniDB episode and anime. */
  episodeForTmdb(episodeId: number): Promise<{ anidb_episode_id: number; anime_id: number } | undefined> {
    return this.db
      .selectFrom('episodes')
      .innerJoin('series', 'series.id', 'episodes.series_id')
      .select(['episodes.anidb_episode_id', 'series.anime_id'])
      .where('episodes.id', '=', episodeId)
      .executeTakeFirst();
  }

  async animeOfSeries(seriesId: number): Promise<number | null> {
    const row = await this.db.selectFrom('series').select('anime_id').where('id', '=', seriesId).executeTakeFirst();
    return row?.anime_id ?? null;
  }

  async seriesOfAnime(animeIds: number[]): Promise<{ id: number; anime_id: number }[]> {
    if (!animeIds.length) return [];
    return this.db.selectFrom('series').select(['id', 'anime_id']).where('anime_id', 'in', animeIds).execute();
  }
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

type Trx = Transaction<Database>;

async function unlinkShows(trx: Trx, animeId: number, showId: number | null): Promise<void> {
  let shows = trx.deleteFrom('xref_anidb_tmdb_show').where('anime_id', '=', animeId);
  let episodes = trx.deleteFrom('xref_anidb_tmdb_episode').where('anime_id', '=', animeId);
  if (showId !== null) {
    shows = shows.where('show_id', '=', showId);
    episodes = episodes.where('show_id', '=', showId);
  }
  await shows.execute();
  await episodes.execute();
}
