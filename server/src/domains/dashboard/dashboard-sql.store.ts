// The SQL pieces and row mappings the dashboard's queries share.
import { sql, type RawBuilder } from 'kysely';
import type { DashboardEpisode } from '@shoko-ts/contract';
import { posterOf } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';
import { timeSpanText } from '../../media/mediainfo/index.js';
import { fileDurationMs, resumePositionText } from '../files/index.js';

/** IncludeOnlyFilter of the contract: include, exclude or only. */
export type IncludeOnly = 'true' | 'false' | 'only';

export interface Page {
  page: number;
  pageSize: number;
}

/** The SQL condition saying the series row `alias` may be shown (tag restrictions), from the collection domain. */
export type SeriesAllowed = (viewer: Viewer, alias: string) => RawBuilder<unknown>;

const EPISODE_TYPE: Record<string, string> = {
  Episode: 'Normal',
  Special: 'Special',
  Credits: 'ThemeSong',
  Trailer: 'Trailer',
  Parody: 'Parody',
  Other: 'Other',
};
export const num = (value: unknown) => Number(value ?? 0);

/** The English title of an AniDB episode, else its first title, else `Episode <n>`. */
function episodeTitle(titlesJson: string | null, number: number): string {
  try {
    const titles = JSON.parse(titlesJson ?? '[]') as Array<{ language: string; value: string }>;
    return (titles.find((t) => t.language === 'en') ?? titles[0])?.value ?? `Episode ${number}`;
  } catch {
    return `Episode ${number}`;
  }
}

export interface EpisodeRow {
  anidb_episode_id: number;
  anime_id: number;
  file_id: number | null;
  episode_id: number | null;
  series_id: number | null;
  titles: string | null;
  number: number;
  type: string;
  air_date: string | null;
  length_seconds: number;
  watched_at: string | null;
  series_title: string | null;
  picture: string | null;
  /** The entry's file record for the viewer, where the query has one. */
  resume_position_ms?: unknown;
  media_info?: string | null;
}

export const EPISODE_COLUMNS =
  sql.raw(`ae.id AS anidb_episode_id, ae.anime_id AS anime_id, e.id AS episode_id, s.id AS series_id, ae.titles AS titles,
  ae.number AS number, ae.type AS type, ae.air_date AS air_date, ae.length_seconds AS length_seconds,
  COALESCE(s.title_override, a.main_title) AS series_title, a.picture AS picture`);

export function toEpisode(row: EpisodeRow): DashboardEpisode {
  const number = num(row.number);
  return {
    IDs: {
      ID: num(row.anidb_episode_id),
      Series: num(row.anime_id),
      ShokoFile: row.file_id === null ? null : num(row.file_id),
      ShokoEpisode: row.episode_id === null ? null : num(row.episode_id),
      ShokoSeries: row.series_id === null ? null : num(row.series_id),
    },
    Title: episodeTitle(row.titles, number),
    Number: number,
    Type: EPISODE_TYPE[row.type] ?? 'Unknown',
    AirDate: row.air_date ? row.air_date.slice(0, 10) : null,
    Duration: timeSpanText((fileDurationMs(row.media_info ?? null) || num(row.length_seconds) * 1000) / 1000),
    ResumePosition: resumePositionText(num(row.resume_position_ms)),
    Watched: row.watched_at ? new Date(row.watched_at).toISOString() : null,
    SeriesTitle: row.series_title ?? '',
    SeriesPoster: posterOf(num(row.anime_id), row.picture),
    Thumbnail: null,
  };
}

export const restrictedClause = (filter: IncludeOnly, alias = 'a'): RawBuilder<unknown> =>
  filter === 'true'
    ? sql.raw('1 = 1')
    : filter === 'only'
      ? sql.raw(`${alias}.restricted = 1`)
      : // Not COALESCE(restricted, 0) = 0: PostgreSQL has no statistics for the expression and guessed 25 of 5,000
        // anime, planning nested loops over every series for the calendar and the series lists.
        sql.raw(`(${alias}.restricted = 0 OR ${alias}.restricted IS NULL)`);

/** A page's LIMIT/OFFSET; page size 0 asks for the whole list, as in Shoko (`ToListResult`). */
export const limitOffset = ({ page, pageSize }: Page) =>
  pageSize ? sql`LIMIT ${pageSize} OFFSET ${(Math.max(page, 1) - 1) * pageSize}` : sql``;

export interface EpisodeListOptions {
  includeSpecials: boolean;
  includeOthers: boolean;
  restricted: IncludeOnly;
}

export interface TotalColumn {
  /** COUNT(*) OVER (): every row of the answer before LIMIT/OFFSET. */
  total_count: unknown;
}

/**
 * A page and the total in one pass where it can: the list query carries the total of the whole answer in each row
 * (a window count), so the expensive part of the query runs once. An empty page (past the end) says nothing of the
 * total, so then the count query runs.
 */
export async function pageWithTotal<Row extends TotalColumn>(
  page: Page,
  count: () => Promise<{ rows: Array<{ count: unknown }> }>,
  list: () => Promise<{ rows: Row[] }>,
): Promise<{ total: number; rows: Row[] }> {
  const { rows } = await list();
  if (rows.length) return { total: num(rows[0].total_count), rows };
  return { total: num((await count()).rows[0]?.count), rows };
}
