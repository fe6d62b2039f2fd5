import type { Kysely } from 'kysely';
import type { Database, TraktLinksTable } from '../../db/schema.js';

export type TraktLinkRow = TraktLinksTable;

/** A local episode and where TMDB places it: a show episode (with its season and number) or a movie. */
export interface TraktEpisodeTarget {
  episodeId: number;
  animeId: number;
  tmdbShowId: number | null;
  tmdbEpisodeId: number | null;
  tvdbEpisodeId: number | null;
  season: number | null;
  number: number | null;
  tmdbMovieId: number | null;
}

/** SQL of the Trakt integration: links, the TMDB places of local episodes, Trakt users' watched states, task runs. */
export class TraktStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Users whose watched state goes to and comes from Trakt (`CommunitySites` has `Trakt`). */
  async traktUserIds(): Promise<number[]> {
    return (await this.db.selectFrom('users').select('id').where('trakt_sync', '=', 1).orderBy('id').execute()).map((r) => r.id);
  }

  async animeIdOfSeries(seriesId: number): Promise<number | null> {
    return (await this.db.selectFrom('series').select('anime_id').where('id', '=', seriesId).executeTakeFirst())?.anime_id ?? null;
  }

  /** Anime with a series and at least one TMDB show or movie. */
  async animeIdsWithTmdb(): Promise<number[]> {
    const shows = this.db.selectFrom('xref_anidb_tmdb_show').select('anime_id');
    const movies = this.db.selectFrom('xref_anidb_tmdb_movie').select('anime_id');
    const rows = await this.db
      .selectFrom('series')
      .select('anime_id')
      .distinct()
      .where((eb) => eb.or([eb('anime_id', 'in', shows), eb('anime_id', 'in', movies)]))
      .orderBy('anime_id')
      .execute();
    return rows.map((r) => r.anime_id);
  }

  /** The TMDB shows (with their TVDB ids) and movies of an anime. */
  async tmdbOf(animeId: number): Promise<{ shows: Array<{ id: number; tvdbId: number | null }>; movies: number[] }> {
    const shows = await this.db
      .selectFrom('xref_anidb_tmdb_show as x')
      .leftJoin('tmdb_shows as s', 's.id', 'x.show_id')
      .select(['x.show_id as id', 's.tvdb_id as tvdbId'])
      .where('x.anime_id', '=', animeId)
      .orderBy('x.show_id')
      .execute();
    const movies = await this.db
      .selectFrom('xref_anidb_tmdb_movie')
      .select('movie_id')
      .distinct()
      .where('anime_id', '=', animeId)
      .orderBy('movie_id')
      .execute();
    return { shows: shows.map((s) => ({ id: s.id, tvdbId: s.tvdbId ?? null })), movies: movies.map((m) => m.movie_id) };
  }

  links(animeId: number): Promise<TraktLinkRow[]> {
    return this.db.selectFrom('trakt_links').selectAll().where('anime_id', '=', animeId).execute();
  }

  /** Anime with at least one show or movie Trakt knows. */
  async linkedAnimeIds(): Promise<number[]> {
    const rows = await this.db.selectFrom('trakt_links').select('anime_id').distinct().where('trakt_id', 'is not', null).execute();
    return rows.map((r) => r.anime_id).sort((a, b) => a - b);
  }

  async saveLink(row: TraktLinkRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('trakt_links')
        .where('anime_id', '=', row.anime_id)
        .where('kind', '=', row.kind)
        .where('tmdb_id', '=', row.tmdb_id)
        .execute();
      await trx.insertInto('trakt_links').values(row).execute();
    });
  }

  /** Links of TMDB shows or movies the anime is no longer linked to. */
  async dropLinksExcept(animeId: number, keep: Array<{ kind: 'show' | 'movie'; tmdbId: number }>): Promise<void> {
    const links = await this.links(animeId);
    for (const link of links) {
      if (keep.some((k) => k.kind === link.kind && k.tmdbId === link.tmdb_id)) continue;
      await this.db
        .deleteFrom('trakt_links')
        .where('anime_id', '=', animeId)
        .where('kind', '=', link.kind)
        .where('tmdb_id', '=', link.tmdb_id)
        .execute();
    }
  }

  /** Where TMDB places each local episode of the anime (or the given episodes); one row per placement. */
  async targets(filter: { animeId: number } | { episodeIds: number[] }): Promise<TraktEpisodeTarget[]> {
    if ('episodeIds' in filter && !filter.episodeIds.length) return [];
    let shows = this.db
      .selectFrom('episodes as e')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .innerJoin('xref_anidb_tmdb_episode as x', (join) =>
        join.onRef('x.anidb_episode_id', '=', 'e.anidb_episode_id').onRef('x.anime_id', '=', 's.anime_id'),
      )
      .innerJoin('tmdb_episodes as t', 't.id', 'x.tmdb_episode_id')
      .select([
        'e.id as episodeId',
        's.anime_id as animeId',
        't.show_id as tmdbShowId',
        't.id as tmdbEpisodeId',
        't.tvdb_episode_id as tvdbEpisodeId',
        't.season_number as season',
        't.episode_number as number',
      ])
      .where('x.tmdb_episode_id', '>', 0);
    let movies = this.db
      .selectFrom('episodes as e')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .innerJoin('xref_anidb_tmdb_movie as m', (join) =>
        join.onRef('m.anidb_episode_id', '=', 'e.anidb_episode_id').onRef('m.anime_id', '=', 's.anime_id'),
      )
      .select(['e.id as episodeId', 's.anime_id as animeId', 'm.movie_id as tmdbMovieId']);
    if ('animeId' in filter) {
      shows = shows.where('s.anime_id', '=', filter.animeId);
      movies = movies.where('s.anime_id', '=', filter.animeId);
    } else {
      shows = shows.where('e.id', 'in', filter.episodeIds);
      movies = movies.where('e.id', 'in', filter.episodeIds);
    }
    const none = { tmdbShowId: null, tmdbEpisodeId: null, tvdbEpisodeId: null, season: null, number: null, tmdbMovieId: null };
    return [
      ...(await shows.execute()).map((r) => ({ ...none, ...r, tvdbEpisodeId: r.tvdbEpisodeId ?? null })),
      ...(await movies.execute()).map((r) => ({ ...none, ...r })),
    ];
  }

  /** Watched episodes among `episodeIds` for the given users: the earliest watched time per episode. */
  async watchedAt(userIds: number[], episodeIds: number[]): Promise<Map<number, string>> {
    const result = new Map<number, string>();
    if (!userIds.length || !episodeIds.length) return result;
    const rows = await this.db
      .selectFrom('user_episode_states')
      .select(['episode_id', 'watched_at'])
      .where('user_id', 'in', userIds)
      .where('episode_id', 'in', episodeIds)
      .where('watched_at', 'is not', null)
      .execute();
    for (const row of rows) {
      const known = result.get(row.episode_id);
      if (!known || row.watched_at! < known) result.set(row.episode_id, row.watched_at!);
    }
    return result;
  }

  /** Episodes of `episodeIds` each user has not watched, as user → episode ids. */
  async unwatchedBy(userIds: number[], episodeIds: number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    if (!userIds.length || !episodeIds.length) return result;
    const watched = await this.db
      .selectFrom('user_episode_states')
      .select(['user_id', 'episode_id'])
      .where('user_id', 'in', userIds)
      .where('episode_id', 'in', episodeIds)
      .where('watched_at', 'is not', null)
      .execute();
    const seen = new Set(watched.map((w) => `${w.user_id}:${w.episode_id}`));
    for (const userId of userIds)
      result.set(
        userId,
        episodeIds.filter((id) => !seen.has(`${userId}:${id}`)),
      );
    return result;
  }

  async lastRun(task: string): Promise<string | null> {
    return (await this.db.selectFrom('trakt_task_runs').select('ran_at').where('task', '=', task).executeTakeFirst())?.ran_at ?? null;
  }

  async setLastRun(task: string, at: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('trakt_task_runs').where('task', '=', task).execute();
      await trx.insertInto('trakt_task_runs').values({ task, ran_at: at }).execute();
    });
  }
}
