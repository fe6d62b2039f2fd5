import type { Insertable, Kysely, Transaction } from 'kysely';
import type {
  Database,
  TmdbCreditsTable,
  TmdbEpisodesTable,
  TmdbImagesTable,
  TmdbMoviesTable,
  TmdbOrderingEpisodesTable,
  TmdbOrderingsTable,
  TmdbSeasonsTable,
  TmdbShowsTable,
} from '../../db/schema.js';

/** Rows a refresh writes (see tmdb-snapshot.ts). */
type Row<T> = Omit<Insertable<T>, 'created_at' | 'updated_at'>;
export type ImageInsertRow = Insertable<TmdbImagesTable>;
export type CreditInsertRow = TmdbCreditsTable;
export type OrderingEpisodeRow = TmdbOrderingEpisodesTable;

/** Everything one show refresh writes; stored in one transaction. */
export interface ShowSnapshot {
  show: Row<TmdbShowsTable>;
  seasons: Row<TmdbSeasonsTable>[];
  episodes: Row<TmdbEpisodesTable>[];
  /** null = orderings were not fetched this time: the stored ones stay as they are. */
  orderings: { ordering: Row<TmdbOrderingsTable>; episodes: TmdbOrderingEpisodesTable[] }[] | null;
  /** null = credits were not fetched: the stored ones stay. */
  credits: TmdbCreditsTable[] | null;
  /** null = images were not fetched: the stored ones stay. */
  images: Insertable<TmdbImagesTable>[] | null;
}

export interface MovieSnapshot {
  movie: Row<TmdbMoviesTable>;
  credits: TmdbCreditsTable[] | null;
  images: Insertable<TmdbImagesTable>[] | null;
}

/** SQLite and PostgreSQL both cap bound parameters; rows are written in slices well below either cap. */
const BATCH_ROWS = 200;

const now = () => new Date().toISOString();

type Trx = Transaction<Database>;
type TableName = keyof Database;

/** Writes a show refresh in one transaction: the show, its seasons, episodes, orderings, credits and images. */
export async function saveShowSnapshot(db: Kysely<Database>, snapshot: ShowSnapshot): Promise<void> {
  const stamp = now();
  const showId = snapshot.show.id;
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('tmdb_shows').select('preferred_ordering_id').where('id', '=', showId).executeTakeFirst();
    const show = { ...snapshot.show, preferred_ordering_id: existing?.preferred_ordering_id ?? null };
    await upsert(trx, 'tmdb_shows', [{ ...show, created_at: stamp, updated_at: stamp }], 'id');
    await upsert(
      trx,
      'tmdb_seasons',
      snapshot.seasons.map((s) => ({ ...s, created_at: stamp, updated_at: stamp })),
      'id',
    );
    await upsert(
      trx,
      'tmdb_episodes',
      snapshot.episodes.map((e) => ({ ...e, created_at: stamp, updated_at: stamp })),
      'id',
    );
    await deleteOthers(
      trx,
      'tmdb_seasons',
      showId,
      snapshot.seasons.map((s) => s.id),
    );
    await deleteOthers(
      trx,
      'tmdb_episodes',
      showId,
      snapshot.episodes.map((e) => e.id),
    );
    if (snapshot.orderings) {
      await trx.deleteFrom('tmdb_ordering_episodes').where('show_id', '=', showId).execute();
      await upsert(
        trx,
        'tmdb_orderings',
        snapshot.orderings.map((o) => ({ ...o.ordering, created_at: stamp, updated_at: stamp })),
        'id',
      );
      const kept = snapshot.orderings.map((o) => o.ordering.id);
      let stale = trx.deleteFrom('tmdb_orderings').where('show_id', '=', showId);
      if (kept.length) stale = stale.where('id', 'not in', kept);
      await stale.execute();
      await insertInBatches(
        trx,
        'tmdb_ordering_episodes',
        snapshot.orderings.flatMap((o) => o.episodes),
      );
      const preferred = show.preferred_ordering_id;
      if (preferred && !kept.includes(preferred))
        await trx.updateTable('tmdb_shows').set({ preferred_ordering_id: null }).where('id', '=', showId).execute();
    }
    if (snapshot.credits) await replaceCredits(trx, 'Show', showId, snapshot.credits);
    if (snapshot.images)
      await replaceImages(
        trx,
        'Show',
        [showId, ...snapshot.seasons.map((s) => s.id), ...snapshot.episodes.map((e) => e.id)],
        snapshot.images,
      );
  });
}

/** Writes a movie refresh in one transaction. */
export async function saveMovieSnapshot(db: Kysely<Database>, snapshot: MovieSnapshot): Promise<void> {
  const stamp = now();
  await db.transaction().execute(async (trx) => {
    await upsert(trx, 'tmdb_movies', [{ ...snapshot.movie, created_at: stamp, updated_at: stamp }], 'id');
    if (snapshot.credits) await replaceCredits(trx, 'Movie', snapshot.movie.id, snapshot.credits);
    if (snapshot.images) await replaceImages(trx, 'Movie', [snapshot.movie.id], snapshot.images);
  });
}

/** Inserts rows, updating every non-key column except `created_at` when the key already exists. */
async function upsert(trx: Trx, table: TableName, rows: object[], key: string): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const slice = rows.slice(i, i + BATCH_ROWS);
    const columns = Object.keys(slice[0]).filter((column) => column !== key && column !== 'created_at');
    await trx
      .insertInto(table)
      .values(slice as never)
      .onConflict((oc) =>
        oc.column(key as never).doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never),
      )
      .execute();
  }
}

export async function insertInBatches(trx: Trx, table: TableName, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + BATCH_ROWS) as never)
      .execute();
  }
}

/** Deletes a show's seasons or episodes that TMDB no longer lists. */
async function deleteOthers(trx: Trx, table: 'tmdb_seasons' | 'tmdb_episodes', showId: number, keep: number[]): Promise<void> {
  let query = trx.deleteFrom(table).where('show_id', '=', showId);
  if (keep.length) query = query.where('id', 'not in', keep);
  await query.execute();
}

async function replaceCredits(trx: Trx, parentType: 'Show' | 'Movie', parentId: number, credits: TmdbCreditsTable[]): Promise<void> {
  await trx.deleteFrom('tmdb_credits').where('parent_type', '=', parentType).where('parent_id', '=', parentId).execute();
  // TMDB lists a person once per credit, but a credit id can repeat across cast and crew of aggregated lists.
  const unique = [...new Map(credits.map((credit) => [credit.credit_id, credit])).values()];
  await insertInBatches(trx, 'tmdb_credits', unique as never);
}

/** Replaces the image metadata of a show (with its seasons and episodes) or a movie. */
async function replaceImages(trx: Trx, kind: 'Show' | 'Movie', parentIds: number[], images: Insertable<TmdbImagesTable>[]): Promise<void> {
  const [ownerId, ...childIds] = parentIds;
  await trx.deleteFrom('tmdb_images').where('parent_type', '=', kind).where('parent_id', '=', ownerId).execute();
  if (kind === 'Show') {
    for (let i = 0; i < childIds.length; i += BATCH_ROWS) {
      await trx
        .deleteFrom('tmdb_images')
        .where('parent_type', 'in', ['Season', 'Episode'])
        .where('parent_id', 'in', childIds.slice(i, i + BATCH_ROWS))
        .execute();
    }
  }
  const unique = [
    ...new Map(images.map((image) => [`${image.parent_type}/${image.parent_id}/${image.image_type}/${image.file_path}`, image])).values(),
  ];
  await insertInBatches(trx, 'tmdb_images', unique as never);
}
