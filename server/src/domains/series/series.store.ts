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

  /** Sets (or with null removes) the series' title override. */
  async setTitleOverride(seriesId: number, title: string | null): Promise<void> {
    await this.db
      .updateTable('series')
      .set({ title_override: title, updated_at: new Date().toISOString() })
      .where('id', '=', seriesId)
      .execute();
  }

  async titleOverride(seriesId: number): Promise<string | null> {
    return (
      (await this.db.selectFrom('series').select('title_override').where('id', '=', seriesId).executeTakeFirst())?.title_override ?? null
    );
  }

  /** Whether the TMDB auto-match is switched off for the series. */
  async tmdbAutoMatchDisabled(seriesId: number): Promise<boolean> {
    const row = await this.db.selectFrom('series').select('disable_tmdb_auto_match').where('id', '=', seriesId).executeTakeFirst();
    return row?.disable_tmdb_auto_match === 1;
  }

  /** Whether the series of an AniDB anime has the TMDB auto-match switched off (false when there is no series). */
  async tmdbAutoMatchDisabledForAnime(animeId: number): Promise<boolean> {
    const row = await this.db.selectFrom('series').select('disable_tmdb_auto_match').where('anime_id', '=', animeId).executeTakeFirst();
    return row?.disable_tmdb_auto_match === 1;
  }

  async setTmdbAutoMatchDisabled(seriesId: number, disabled: boolean): Promise<void> {
    await this.db
      .updateTable('series')
      .set({ disable_tmdb_auto_match: disabled ? 1 : 0 })
      .where('id', '=', seriesId)
      .execute();
  }

  /** The group and its parents up to the top-level group, innermost first. */
  async groupChain(groupId: number): Promise<number[]> {
    const chain: number[] = [];
    for (let id: number | null = groupId; id !== null && chain.length < 100 && !chain.includes(id);) {
      chain.push(id);
      const current: number = id;
      id = (await this.db.selectFrom('groups').select('parent_id').where('id', '=', current).executeTakeFirst())?.parent_id ?? null;
    }
    return chain;
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

  /** Every file (one row per location) linked to an AniDB episode of the series' episodes, with its AniDB release data. */
  async summaryFileRows(seriesId: number): Promise<SummaryFileRow[]> {
    const { rows } = await sql<SummaryFileRow>`
        SELECT l.episode_id, f.id AS file_id, f.ed2k, f.size, l.source AS link_source, af.source, af.version, af.is_deprecated, af.audio_languages, af.subtitle_languages,
          rg.name AS group_name, rg.short_name AS group_short, fl.id AS location_id, fl.import_folder_id, fl.relative_path,
          CASE WHEN fl.id IS NULL THEN NULL WHEN fl.is_accessible = 1 AND imf.is_available = 1 THEN 1 ELSE 0 END AS is_accessible
        FROM file_episode_links l
          JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
          LEFT JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size
          LEFT JOIN anidb_release_groups rg ON rg.id = af.group_id
          LEFT JOIN file_locations fl ON fl.file_id = f.id
          LEFT JOIN import_folders imf ON imf.id = fl.import_folder_id
        WHERE l.episode_id IN (SELECT e.anidb_episode_id FROM episodes e WHERE e.series_id = ${seriesId})
        ORDER BY f.id, fl.id`.execute(this.db);
    return rows;
  }
}
