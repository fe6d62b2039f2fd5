import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Test library: a drop source with `count` recognised episode files of one anime, and an empty drop destination. */
export interface SeededLibrary {
  source: { id: number; path: string };
  destination: { id: number; path: string };
  animeId: number;
  fileIds: number[];
  /** Relative path (in the source) of each file, by file id. */
  paths: Map<number, string>;
}

const hex = (text: string, length: number) => createHash('sha1').update(text).digest('hex').slice(0, length).toUpperCase();
const now = () => new Date().toISOString();

export async function seedLibrary(
  db: Kysely<Database>,
  root: string,
  options: { count: number; sidecarsFor?: number[]; animeId?: number; episodeBase?: number },
): Promise<SeededLibrary> {
  const animeId = options.animeId ?? 1001;
  const episodeBase = options.episodeBase ?? 50_000;
  const sourcePath = path.join(root, 'source');
  const destinationPath = path.join(root, 'destination');
  fs.mkdirSync(path.join(sourcePath, 'incoming'), { recursive: true });
  fs.mkdirSync(destinationPath, { recursive: true });
  const source = await db
    .insertInto('import_folders')
    .values({ name: `Source ${animeId}`, path: sourcePath, is_drop_source: 1, is_drop_destination: 0, watch_for_new_files: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const destination = await db
    .insertInto('import_folders')
    .values({ name: `Destination ${animeId}`, path: destinationPath, is_drop_source: 0, is_drop_destination: 1, watch_for_new_files: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();

  await db
    .insertInto('anidb_anime')
    .values({
      id: animeId,
      type: 'TV Series',
      main_title: 'Renamer Test Anime',
      episode_count: options.count,
      special_count: 0,
      air_date: '2015-04-01',
      end_date: null,
      restricted: 0,
      description: '',
      picture: null,
      rating: 0,
      rating_votes: 0,
      temp_rating: 0,
      temp_rating_votes: 0,
      resources: '[]',
      fetched_at: now(),
      url: null,
    })
    .execute();
  await db
    .insertInto('anidb_anime_titles')
    .values([
      { anime_id: animeId, type: 'main', language: 'x-jat', value: 'Renamer Test Anime' },
      { anime_id: animeId, type: 'official', language: 'en', value: 'Renamer Test EN' },
    ])
    .execute();

  const fileIds: number[] = [];
  const paths = new Map<number, string>();
  const sidecars = new Set(options.sidecarsFor ?? []);
  for (let start = 0; start < options.count; start += 100) {
    const indexes = Array.from({ length: Math.min(100, options.count - start) }, (_, i) => start + i);
    await db
      .insertInto('anidb_episodes')
      .values(
        indexes.map((i) => ({
          id: episodeBase + i,
          anime_id: animeId,
          type: 'Episode',
          number: i + 1,
          length_seconds: 1440,
          air_date: `2015-04-${String((i % 28) + 1).padStart(2, '0')}`,
          rating: 0,
          votes: 0,
          description: '',
          titles: JSON.stringify([{ language: 'en', value: `Episode Title ${i + 1}` }]),
        })),
      )
      .execute();
    const contents = indexes.map((i) => `video content of ${animeId} episode ${i + 1}\n`.repeat(10 + i));
    const rows = indexes.map((i, k) => ({
      size: Buffer.byteLength(contents[k]),
      ed2k: hex(`ed2k-${animeId}-${i}`, 32),
      ed2k_alternate: null,
      crc32: hex(`crc-${animeId}-${i}`, 8),
      md5: '',
      sha1: '',
      is_ignored: 0,
      is_variation: 0,
      media_info: null,
      imported_at: now(),
      created_at: now(),
      updated_at: now(),
    }));
    const inserted = await db.insertInto('files').values(rows).returning('id').execute();
    const locations = indexes.map((i, k) => {
      const relativePath = `incoming/[Raw] ep ${i + 1}.mkv`;
      fs.writeFileSync(path.join(sourcePath, relativePath), contents[k]);
      if (sidecars.has(i)) {
        fs.writeFileSync(path.join(sourcePath, `incoming/[Raw] ep ${i + 1}.ass`), 'subtitles');
        fs.writeFileSync(path.join(sourcePath, `incoming/[Raw] ep ${i + 1}.en.srt`), 'subtitles');
      }
      fileIds.push(inserted[k].id);
      paths.set(inserted[k].id, relativePath);
      return { file_id: inserted[k].id, import_folder_id: source.id, relative_path: relativePath, is_accessible: 1, mtime_ms: null };
    });
    await db.insertInto('file_locations').values(locations).execute();
    await db
      .insertInto('anidb_files')
      .values(
        indexes.map((i, k) => ({
          ed2k: rows[k].ed2k,
          size: rows[k].size,
          file_id: 900_000 + animeId * 1000 + i,
          anime_id: animeId,
          group_id: 7,
          source: 'TV',
          version: 1,
          is_deprecated: 0,
          is_censored: null,
          is_chaptered: 0,
          file_name: `orig ${i}.mkv`,
          description: '',
          audio_languages: '["japanese"]',
          subtitle_languages: '["english"]',
          lookup_attempts: 1,
          looked_up_at: now(),
        })),
      )
      .execute();
    await db
      .insertInto('file_episode_links')
      .values(
        indexes.map((i, k) => ({
          ed2k: rows[k].ed2k,
          size: rows[k].size,
          anime_id: animeId,
          episode_id: episodeBase + i,
          percentage: 100,
          ordering: 0,
          source: 'AniDB' as const,
          release_group_id: 7,
        })),
      )
      .execute();
  }
  return {
    source: { id: source.id, path: sourcePath },
    destination: { id: destination.id, path: destinationPath },
    animeId,
    fileIds,
    paths,
  };
}

/** A script naming files `<anime> - <episode number> [<CRC>]`. */
export const TEST_SCRIPT = "DO ADD '%ann - %enr [%CRC]'";
