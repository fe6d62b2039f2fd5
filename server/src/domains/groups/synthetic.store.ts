import { sql, type Kysely } from 'kysely';
import { insertGroup } from '../../db/shared-queries.js';
import type { Database } from '../../db/schema.js';

// Writes invented collections straight into the database, for API tests and the collection generator (synthetic.ts).

/** One series to write straight into the database: its AniDB anime, titles, tags, episodes and local files. */
export interface SeriesSpec {
  animeId: number;
  title: string;
  titles?: Array<{ type: string; language: string; value: string }>;
  type?: string;
  airDate?: string | null;
  endDate?: string | null;
  rating?: number;
  tags?: Array<{ id: number; name: string; weight?: number }>;
  /** Episodes; `file` gives the episode one local file (a number: that many releases), `watchedBy` marks it watched for those user ids. */
  episodes?: Array<{
    id: number;
    type?: string;
    number?: number;
    airDate?: string | null;
    file?: boolean | number;
    hidden?: boolean;
    watchedBy?: number[];
  }>;
  /** Join this existing group instead of creating one named after the series. */
  groupId?: number;
  groupName?: string;
  parentGroupId?: number | null;
  createdAt?: string;
  fileSource?: string;
  audioLanguages?: string[];
}

const stamp = () => new Date().toISOString();
const fakeEd2k = (n: number) => n.toString(16).toUpperCase().padStart(32, '0');

/** A hashed file record of invented content, imported at `importedAt` (null: never imported). */
export const fileRow = (content: { size: number; ed2k: string }, importedAt: string | null, now: string) => ({
  ...content,
  ed2k_alternate: null,
  crc32: '',
  md5: '',
  sha1: '',
  is_ignored: 0,
  is_variation: 0,
  media_info: null,
  imported_at: importedAt,
  created_at: now,
  updated_at: now,
});

async function chunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Writes many series at once with batched inserts. Used by API tests (a handful of invented series) and by the
 * collection generator (thousands). Returns series/group/episode ids per anime id.
 */
export async function insertSeries(
  db: Kysely<Database>,
  specs: SeriesSpec[],
): Promise<Map<number, { seriesId: number; groupId: number; episodeIds: number[] }>> {
  const now = stamp();
  const result = new Map<number, { seriesId: number; groupId: number; episodeIds: number[] }>();
  if (!specs.length) return result;
  await db.transaction().execute(async (trx) => {
    await chunked(specs, 200, (chunk) =>
      trx
        .insertInto('anidb_anime')
        .values(
          chunk.map((s) => ({
            id: s.animeId,
            type: s.type ?? 'TV Series',
            main_title: s.title,
            episode_count: (s.episodes ?? []).filter((e) => (e.type ?? 'Episode') === 'Episode').length,
            special_count: (s.episodes ?? []).filter((e) => e.type === 'Special').length,
            air_date: s.airDate ?? null,
            end_date: s.endDate ?? null,
            restricted: 0,
            description: `About ${s.title}.`,
            picture: `${s.animeId}.jpg`,
            rating: s.rating ?? 0,
            rating_votes: s.rating ? 100 : 0,
            temp_rating: 0,
            temp_rating_votes: 0,
            resources: '[]',
            fetched_at: now,
          })),
        )
        .execute(),
    );
    const titles = specs.flatMap((s) =>
      (s.titles ?? [{ type: 'main', language: 'x-jat', value: s.title }]).map((t) => ({ anime_id: s.animeId, ...t })),
    );
    await chunked(titles, 300, (chunk) => trx.insertInto('anidb_anime_titles').values(chunk).execute());
    const tags = new Map<number, string>();
    for (const s of specs) for (const t of s.tags ?? []) tags.set(t.id, t.name);
    const existingTags = new Set(
      (tags.size
        ? await trx
            .selectFrom('anidb_tags')
            .select('id')
            .where('id', 'in', [...tags.keys()])
            .execute()
        : []
      ).map((t) => t.id),
    );
    const newTags = [...tags]
      .filter(([id]) => !existingTags.has(id))
      .map(([id, name]) => ({ id, parent_id: null, name, description: null, is_spoiler: 0, is_verified: 1, updated_at: now }));
    await chunked(newTags, 300, (chunk) => trx.insertInto('anidb_tags').values(chunk).execute());
    const animeTags = specs.flatMap((s) =>
      (s.tags ?? []).map((t) => ({ anime_id: s.animeId, tag_id: t.id, weight: t.weight ?? 300, is_local_spoiler: 0 })),
    );
    await chunked(animeTags, 300, (chunk) => trx.insertInto('anidb_anime_tags').values(chunk).execute());
    const episodes = specs.flatMap((s) =>
      (s.episodes ?? []).map((e, i) => ({
        id: e.id,
        anime_id: s.animeId,
        type: e.type ?? 'Episode',
        number: e.number ?? i + 1,
        length_seconds: 1440,
        air_date: e.airDate === undefined ? (s.airDate ?? null) : e.airDate,
        rating: 0,
        votes: 0,
        description: '',
        titles: JSON.stringify([{ language: 'en', value: `Episode ${e.number ?? i + 1}` }]),
      })),
    );
    await chunked(episodes, 300, (chunk) => trx.insertInto('anidb_episodes').values(chunk).execute());

    for (const s of specs) {
      const created = s.createdAt ?? now;
      const groupId =
        s.groupId ??
        (await insertGroup(
          trx,
          { parent_id: s.parentGroupId ?? null, name: s.groupName ?? s.title, description: '', has_custom_name: s.groupName ? 1 : 0 },
          created,
        ));
      const { id: seriesId } = await trx
        .insertInto('series')
        .values({ anime_id: s.animeId, group_id: groupId, title_override: null, created_at: created, updated_at: created })
        .returning('id')
        .executeTakeFirstOrThrow();
      result.set(s.animeId, { seriesId, groupId, episodeIds: [] });
    }
    const localEpisodes = specs.flatMap((s) => (s.episodes ?? []).map((e) => ({ series: result.get(s.animeId)!.seriesId, spec: s, e })));
    await chunked(localEpisodes, 300, async (chunk) => {
      const rows = await trx
        .insertInto('episodes')
        .values(
          chunk.map(({ series, e }) => ({
            series_id: series,
            anidb_episode_id: e.id,
            is_hidden: e.hidden ? 1 : 0,
            title_override: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'anidb_episode_id'])
        .execute();
      const byAniDB = new Map(rows.map((r) => [r.anidb_episode_id, r.id]));
      for (const { spec, e } of chunk) result.get(spec.animeId)!.episodeIds.push(byAniDB.get(e.id)!);
      const watched = chunk.flatMap(({ e }) =>
        (e.watchedBy ?? []).map((userId) => ({
          user_id: userId,
          episode_id: byAniDB.get(e.id)!,
          watched_at: now,
          watch_count: 1,
          rating: null,
          updated_at: now,
        })),
      );
      if (watched.length) await trx.insertInto('user_episode_states').values(watched).execute();
    });
    // Episode n's k-th release has size 100,000,000 + n (+ k × 10,000,000 for further releases).
    const files = localEpisodes.flatMap((item) => Array.from({ length: Number(item.e.file ?? 0) }, (_, k) => ({ ...item, k })));
    await chunked(files, 200, async (chunk) => {
      const values = chunk.map(({ e, k }) => ({ size: 100_000_000 + k * 10_000_000 + e.id, ed2k: fakeEd2k(e.id * 16 + k) }));
      await trx
        .insertInto('files')
        .values(values.map((v) => fileRow(v, now, now)))
        .execute();
      await trx
        .insertInto('file_episode_links')
        .values(
          chunk.map(({ spec, e }, i) => ({
            ...values[i],
            anime_id: spec.animeId,
            episode_id: e.id,
            percentage: 100,
            ordering: 0,
            source: 'AniDB' as const,
            release_group_id: null,
          })),
        )
        .execute();
      await trx
        .insertInto('anidb_files')
        .values(
          chunk.map(({ spec, e }, i) => ({
            ...values[i],
            file_id: e.id,
            anime_id: spec.animeId,
            group_id: 0,
            source: spec.fileSource ?? 'www',
            version: 1,
            is_deprecated: 0,
            is_censored: null,
            is_chaptered: 0,
            file_name: `${spec.title} - ${e.number ?? 1}.mkv`,
            description: '',
            audio_languages: JSON.stringify(spec.audioLanguages ?? ['japanese']),
            subtitle_languages: JSON.stringify(['english']),
            lookup_attempts: 1,
            looked_up_at: now,
          })),
        )
        .execute();
    });
  });
  return result;
}

/** Every series' id and group, by id. */
export function seriesGroups(db: Kysely<Database>) {
  return db.selectFrom('series').select(['id', 'group_id']).orderBy('id').execute();
}

/** Moves series into other groups and removes the groups left without series, in one transaction. */
export async function moveSeriesToGroups(db: Kysely<Database>, moves: Array<{ id: number; to: number }>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const move of moves) await trx.updateTable('series').set({ group_id: move.to }).where('id', '=', move.id).execute();
    await trx.deleteFrom('groups').where('id', 'not in', trx.selectFrom('series').select('group_id')).execute();
  });
}

/**
 * Gives a generated collection what the file lists and release management read besides links: `unrecognized` files
 * without any link, one location for every file in a (never scanned) import folder, and a second location in another
 * folder for every `duplicateEvery`-th file.
 */
export async function placeFiles(db: Kysely<Database>, options: { unrecognized: number; duplicateEvery: number }): Promise<void> {
  const now = stamp();
  await db.transaction().execute(async (trx) => {
    const folder = (name: string) =>
      trx
        .insertInto('import_folders')
        .values({ name, path: `/nonexistent/shoko-bench/${name}`, is_drop_source: 0, is_drop_destination: 0, watch_for_new_files: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
    const main = (await folder('Anime')).id;
    const copies = (await folder('Backup')).id;
    const unrecognized = Array.from({ length: options.unrecognized }, (_, n) =>
      fileRow({ size: 50_000_000 + n, ed2k: fakeEd2k(0xf000_0000 + n) }, null, now),
    );
    await chunked(unrecognized, 300, (chunk) => trx.insertInto('files').values(chunk).execute());
    await sql`INSERT INTO file_locations (file_id, import_folder_id, relative_path, is_accessible, mtime_ms)
      SELECT f.id, ${main}, 'Series/' || f.id || '.mkv', 1, NULL FROM files f`.execute(trx);
    await sql`INSERT INTO file_locations (file_id, import_folder_id, relative_path, is_accessible, mtime_ms)
      SELECT f.id, ${copies}, 'Copies/' || f.id || '.mkv', 1, NULL FROM files f WHERE f.id % ${options.duplicateEvery} = 0`.execute(trx);
  });
}
