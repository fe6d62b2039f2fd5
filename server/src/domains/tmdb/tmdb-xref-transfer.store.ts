import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, XrefAnidbTmdbMovieTable, XrefAnidbTmdbShowTable } from '../../db/schema.js';
import type { EpisodeXrefRow } from './tmdb.store.js';

export type MovieLinkRow = Selectable<XrefAnidbTmdbMovieTable>;
export type ShowLinkRow = Selectable<XrefAnidbTmdbShowTable>;
export type EpisodeLinkRow = EpisodeXrefRow;
export type NewEpisodeLinkRow = Omit<EpisodeLinkRow, 'id'>;

/** Every AniDB ↔ TMDB cross-reference, in the order the CSV lists them. */
export interface AllLinks {
  movies: MovieLinkRow[];
  shows: ShowLinkRow[];
  episodes: EpisodeLinkRow[];
}

/** What one import writes: applied in one transaction, in the order removals → updates → inserts. */
export interface LinkChanges {
  movies: { upsert: MovieLinkRow[]; remove: Pick<MovieLinkRow, 'anidb_episode_id' | 'movie_id'>[] };
  shows: { upsert: ShowLinkRow[] };
  episodes: { insert: NewEpisodeLinkRow[]; update: EpisodeLinkRow[]; remove: number[] };
}

/** Names and numbers the export's comments show. */
export interface CommentLookups {
  anime: Map<number, { type: string; title: string }>;
  anidbEpisodes: Map<number, { type: string; number: number; titles: string }>;
  movies: Map<number, string>;
  shows: Map<number, string>;
  tmdbEpisodes: Map<number, { title: string; season: number; episode: number }>;
}

/** Ids per query: far below SQLite's and PostgreSQL's bound-parameter caps. */
const ID_SLICE = 500;

/** The queries behind `Tmdb/Export` and `Tmdb/Import` (tmdb-xref-transfer.service.ts). */
export class TmdbXrefTransferStore {
  constructor(private readonly db: Kysely<Database>) {}

  allLinks(): Promise<AllLinks> {
    return readAllLinks(this.db);
  }

  /**
   * Reads every link and writes what `plan` makes of them, in one transaction: a plan that throws leaves everything as
   * it was. Resolves to the plan's result.
   */
  async importLinks<T extends { changes: LinkChanges }>(plan: (existing: AllLinks) => T): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const result = plan(await readAllLinks(trx));
      await writeChanges(trx, result.changes);
      return result;
    });
  }

  async commentLookups(links: AllLinks): Promise<CommentLookups> {
    const animeIds = unique([...links.movies, ...links.shows, ...links.episodes].map((link) => link.anime_id));
    const anidbEpisodeIds = unique([...links.movies, ...links.episodes].map((link) => link.anidb_episode_id));
    const movieIds = unique(links.movies.map((link) => link.movie_id));
    const showIds = unique([...links.shows, ...links.episodes].map((link) => link.show_id));
    const tmdbEpisodeIds = unique(links.episodes.map((link) => link.tmdb_episode_id));
    const [anime, anidbEpisodes, movies, shows, tmdbEpisodes] = await Promise.all([
      inSlices(animeIds, (ids) => this.db.selectFrom('anidb_anime').select(['id', 'type', 'main_title']).where('id', 'in', ids).execute()),
      inSlices(anidbEpisodeIds, (ids) =>
        this.db.selectFrom('anidb_episodes').select(['id', 'type', 'number', 'titles']).where('id', 'in', ids).execute(),
      ),
      inSlices(movieIds, (ids) => this.db.selectFrom('tmdb_movies').select(['id', 'title']).where('id', 'in', ids).execute()),
      inSlices(showIds, (ids) => this.db.selectFrom('tmdb_shows').select(['id', 'title']).where('id', 'in', ids).execute()),
      inSlices(tmdbEpisodeIds, (ids) =>
        this.db.selectFrom('tmdb_episodes').select(['id', 'title', 'season_number', 'episode_number']).where('id', 'in', ids).execute(),
      ),
    ]);
    return {
      anime: new Map(anime.map((row) => [row.id, { type: row.type, title: row.main_title }])),
      anidbEpisodes: new Map(anidbEpisodes.map((row) => [row.id, { type: row.type, number: row.number, titles: row.titles }])),
      movies: new Map(movies.map((row) => [row.id, row.title])),
      shows: new Map(shows.map((row) => [row.id, row.title])),
      tmdbEpisodes: new Map(
        tmdbEpisodes.map((row) => [row.id, { title: row.title, season: row.season_number, episode: row.episode_number }]),
      ),
    };
  }

  /** The anime among `animeIds` that have a Shoko series. */
  async animeWithSeries(animeIds: number[]): Promise<Set<number>> {
    const rows = await inSlices(unique(animeIds), (ids) =>
      this.db.selectFrom('series').select('anime_id').where('anime_id', 'in', ids).execute(),
    );
    return new Set(rows.map((row) => row.anime_id));
  }

  /** The ids among these that are stored locally. */
  async storedTmdbIds(ids: { movies: number[]; shows: number[]; episodes: number[] }) {
    const [movies, shows, episodes] = await Promise.all([
      inSlices(unique(ids.movies), (slice) => this.db.selectFrom('tmdb_movies').select('id').where('id', 'in', slice).execute()),
      inSlices(unique(ids.shows), (slice) => this.db.selectFrom('tmdb_shows').select('id').where('id', 'in', slice).execute()),
      inSlices(unique(ids.episodes), (slice) => this.db.selectFrom('tmdb_episodes').select('id').where('id', 'in', slice).execute()),
    ]);
    const idsOf = (rows: { id: number }[]) => new Set(rows.map((row) => row.id));
    return { movies: idsOf(movies), shows: idsOf(shows), episodes: idsOf(episodes) };
  }
}

type Db = Kysely<Database> | Transaction<Database>;

async function readAllLinks(db: Db): Promise<AllLinks> {
  const [movies, shows, episodes] = await Promise.all([
    db.selectFrom('xref_anidb_tmdb_movie').selectAll().orderBy('anime_id').orderBy('anidb_episode_id').orderBy('movie_id').execute(),
    db.selectFrom('xref_anidb_tmdb_show').selectAll().orderBy('anime_id').orderBy('show_id').execute(),
    db
      .selectFrom('xref_anidb_tmdb_episode')
      .selectAll()
      .orderBy('anime_id')
      .orderBy('anidb_episode_id')
      .orderBy('ordering')
      .orderBy('id')
      .execute(),
  ]);
  return { movies, shows, episodes };
}

async function writeChanges(trx: Transaction<Database>, changes: LinkChanges): Promise<void> {
  for (const link of changes.movies.remove) {
    await trx
      .deleteFrom('xref_anidb_tmdb_movie')
      .where('anidb_episode_id', '=', link.anidb_episode_id)
      .where('movie_id', '=', link.movie_id)
      .execute();
  }
  for (const link of changes.movies.upsert) {
    await trx
      .insertInto('xref_anidb_tmdb_movie')
      .values(link)
      .onConflict((oc) => oc.columns(['anidb_episode_id', 'movie_id']).doUpdateSet({ anime_id: link.anime_id, source: link.source }))
      .execute();
  }
  for (const link of changes.shows.upsert) {
    await trx
      .insertInto('xref_anidb_tmdb_show')
      .values(link)
      .onConflict((oc) => oc.columns(['anime_id', 'show_id']).doUpdateSet({ source: link.source }))
      .execute();
  }
  for (let i = 0; i < changes.episodes.remove.length; i += ID_SLICE) {
    await trx
      .deleteFrom('xref_anidb_tmdb_episode')
      .where('id', 'in', changes.episodes.remove.slice(i, i + ID_SLICE))
      .execute();
  }
  for (const { id, ...link } of changes.episodes.update) {
    await trx.updateTable('xref_anidb_tmdb_episode').set(link).where('id', '=', id).execute();
  }
  // Well below either database's bound-parameter cap (six columns a row).
  for (let i = 0; i < changes.episodes.insert.length; i += 200) {
    await trx
      .insertInto('xref_anidb_tmdb_episode')
      .values(changes.episodes.insert.slice(i, i + 200))
      .execute();
  }
}

const unique = (ids: number[]) => [...new Set(ids)];

async function inSlices<T>(ids: number[], query: (slice: number[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += ID_SLICE) rows.push(...(await query(ids.slice(i, i + ID_SLICE))));
  return rows;
}
