import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { TestServer } from '../test/harness.js';
import type { Database } from './schema.js';

export interface ScanOptions {
  ignoreVariations?: boolean;
  collecting?: boolean;
  onlyFinished?: boolean;
  /** Series whose anime carries one of these tags are left out. */
  restrictedTags?: readonly number[];
}

/**
 * A release-management series list as computed before the maintained figures (0034) and totals (0045): a grouped scan
 * of every link, `[series id, episode count]` in the lists' order. Tests compare the served lists with it.
 */
export async function scannedReleaseSeries(db: Kysely<Database>, type: string, options: ScanOptions): Promise<Array<[number, number]>> {
  const today = new Date().toISOString().slice(0, 10);
  const files = sql`JOIN file_episode_links l ON l.episode_id = ae.id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size`;
  const base = sql`FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id JOIN series s ON s.id = e.series_id
    JOIN anidb_anime a ON a.id = s.anime_id`;
  const scope =
    type === 'MultipleReleases'
      ? sql`SELECT e.id AS episode_id, e.series_id ${base} ${files} WHERE f.ed2k <> '' ${options.ignoreVariations ? sql`AND f.is_variation = 0` : sql``}
          GROUP BY e.id, e.series_id HAVING COUNT(DISTINCT f.id) > 1`
      : type === 'DuplicateFiles'
        ? sql`SELECT e.id AS episode_id, e.series_id ${base} ${files}
            WHERE (SELECT COUNT(*) FROM file_locations c WHERE c.file_id = f.id) > 1 GROUP BY e.id, e.series_id`
        : sql`SELECT e.id AS episode_id, e.series_id ${base}
            WHERE ae.type = 'Episode' AND e.is_hidden = 0 AND ae.air_date IS NOT NULL AND substr(ae.air_date, 1, 10) <= ${today}
              AND NOT EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = ae.id)
              ${
                options.collecting
                  ? sql`AND EXISTS (SELECT 1 FROM anidb_episodes later JOIN file_episode_links l ON l.episode_id = later.id
                      JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
                      WHERE later.anime_id = ae.anime_id AND later.type = 'Episode' AND later.number > ae.number AND l.source = 'AniDB' AND l.release_group_id > 0)`
                  : sql``
              }`;
  const finished = options.onlyFinished ? sql`AND a.end_date IS NOT NULL AND substr(a.end_date, 1, 10) <= ${today}` : sql``;
  const allowed = options.restrictedTags?.length
    ? sql`AND NOT EXISTS (SELECT 1 FROM anidb_anime_tags t WHERE t.anime_id = a.id AND t.tag_id IN (${sql.join(options.restrictedTags)}))`
    : sql``;
  const { rows } = await sql<{ series_id: number; n: number | string }>`SELECT s.id AS series_id, COUNT(*) AS n
    FROM (${scope}) x JOIN series s ON s.id = x.series_id JOIN anidb_anime a ON a.id = s.anime_id WHERE 1 = 1 ${finished} ${allowed}
    GROUP BY s.id, s.title_override, a.main_title, a.id ORDER BY lower(COALESCE(s.title_override, a.main_title)), a.id`.execute(db);
  return rows.map((r) => [r.series_id, Number(r.n)]);
}

/**
 * Stores a new file per `[size, ed2k]` (a copy of any stored file's row otherwise) and links each to the episode by
 * hand through the API: as many releases more for it. Returns the new files' ids.
 */
export async function addReleases(server: TestServer, adminKey: string, episodeId: number, contents: Array<[number, string]>) {
  const db = server.services.db.kysely;
  const { id: _id, ...template } = await db.selectFrom('files').selectAll().limit(1).executeTakeFirstOrThrow();
  const added: number[] = [];
  for (const [size, ed2k] of contents) {
    const file = await db
      .insertInto('files')
      .values({ ...template, size, ed2k })
      .returning('id')
      .executeTakeFirstOrThrow();
    added.push(file.id);
    const res = await server.request({
      method: 'POST',
      url: `/api/v3/File/${file.id}/Link`,
      key: adminKey,
      body: { EpisodeIDs: [episodeId] },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return added;
}
