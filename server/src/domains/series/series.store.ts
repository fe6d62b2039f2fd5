import { sql, type Kysely } from 'kysely';
import { ANIDB_EPISODE_MODEL_COLUMNS } from '../../db/shared-queries.js';
import type { Database } from '../../db/schema.js';

/** A file (one row per location) linked to an AniDB episode, with its AniDB release data (file summary). */
export interface SummaryFileRow {
  episode_id: number;
  file_id: number;
  ed2k: string;
  size: number;
  link_source: string;
  source: string | null;
  version: number | null;
  is_deprecated: number | null;
  audio_languages: string | null;
  subtitle_languages: string | null;
  group_name: string | null;
  group_short: string | null;
  location_id: number | null;
  import_folder_id: number | null;
  relative_path: string | null;
  is_accessible: number | null;
}

/** Shoko series rows, the viewer's series votes and the file summary's rows. */
export class SeriesStore {
  constructor(private readonly db: Kysely<Database>) {}

  async series(id: number) {
    return (await this.db.selectFrom('series').select(['id', 'anime_id', 'group_id']).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** The AniDB end date of the anime (null when unknown or still airing). */
  async animeEndDate(animeId: number): Promise<string | null> {
    const anime = await this.db.selectFrom('anidb_anime').select('end_date').where('id', '=', animeId).executeTakeFirst();
    return anime?.end_date ?? null;
  }

  async vote(userId: number, seriesId: number, value: number | null, type: 'Permanent' | 'Temporary') {
    await this.db.deleteFrom('user_series_votes').where('user_id', '=', userId).where('series_id', '=', seriesId).execute();
    if (value === null) return;
    await this.db
      .insertInto('user_series_votes')
      .values({ user_id: userId, series_id: seriesId, value, vote_type: type, updated_at: new Date().toISOString() })
      .execute();
  }

  /** The series' episodes with their AniDB data, for the file summary. */
  summaryEpisodes(seriesId: number) {
    return this.db
      .selectFrom('episodes as e')
      .innerJoin('anidb_episodes as ae', 'ae.id', 'e.anidb_episode_id')
      .select(['e.id', 'e.is_hidden', 'ae.id as anidb_id', ...ANIDB_EPISODE_MODEL_COLUMNS])
      .where('e.series_id', '=', seriesId)
      .execute();
  }

  /** Every file (one row per location) linked to the AniDB episodes, with its AniDB release data. */
  async summaryFileRows(anidbEpisodeIds: number[]): Promise<SummaryFileRow[]> {
    if (!anidbEpisodeIds.length) return [];
    const { rows } = await sql<SummaryFileRow>`
        SELECT l.episode_id, f.id AS file_id, f.ed2k, f.size, l.source AS link_source, af.source, af.version, af.is_deprecated, af.audio_languages, af.subtitle_languages,
          rg.name AS group_name, rg.short_name AS group_short, fl.id AS location_id, fl.import_folder_id, fl.relative_path, fl.is_accessible
        FROM file_episode_links l
          JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
          LEFT JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size
          LEFT JOIN anidb_release_groups rg ON rg.id = af.group_id
          LEFT JOIN file_locations fl ON fl.file_id = f.id
        WHERE l.episode_id IN (${sql.join(anidbEpisodeIds)})
        ORDER BY f.id, fl.id`.execute(this.db);
    return rows;
  }
}
