import { sql, type Kysely, type RawBuilder } from 'kysely';
import type {
  AnimeType,
  AnidbAnimeSummary,
  CollectionImage,
  EpisodeTypeCounts,
  FileSourceCounts,
  Images,
  Series,
  SeriesSizes,
} from '@shoko-ts/contract';
import { EpisodeTypeCountKeys, FileSourceKeys } from '@shoko-ts/contract';
import type { Database } from '../../db/schema.js';
import { AccountCache } from '../../db/account-cache.js';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import type { DialectName } from '../../db/database.js';
import { nestedGroups, topGroupsOf } from '../../db/group-tree.js';
import type { Viewer } from '../../http/viewer.js';

// The metadata pipeline stores the v3 names (TV, TVSpecial, …); AniDB's own texts are accepted as well.
const ANIME_TYPE_BY_ANIDB: Record<string, AnimeType> = {
  'TV Series': 'TV',
  Movie: 'Movie',
  OVA: 'OVA',
  'TV Special': 'TVSpecial',
  Web: 'Web',
  'Music Video': 'MusicVideo',
  Other: 'Other',
  TV: 'TV',
  TVSpecial: 'TVSpecial',
  MusicVideo: 'MusicVideo',
  Unknown: 'Unknown',
};
export const animeType = (anidbType: string | null | undefined): AnimeType =>
  anidbType ? (ANIME_TYPE_BY_ANIDB[anidbType] ?? 'Unknown') : 'Unknown';

export const COUNT_KEY_BY_EPISODE_TYPE: Record<string, keyof EpisodeTypeCounts> = {
  Episode: 'Episodes',
  Special: 'Specials',
  Credits: 'Credits',
  Trailer: 'Trailers',
  Parody: 'Parodies',
  Other: 'Others',
};
const FILE_SOURCE_BY_ANIDB: Record<string, keyof FileSourceCounts> = {
  tv: 'TV',
  hdtv: 'TV',
  dtv: 'TV',
  dvd: 'DVD',
  hkdvd: 'DVD',
  hddvd: 'DVD',
  'blu-ray': 'BluRay',
  bluray: 'BluRay',
  www: 'Web',
  web: 'Web',
  vhs: 'VHS',
  vcd: 'VCD',
  svcd: 'VCD',
  ld: 'LaserDisc',
  laserdisc: 'LaserDisc',
  camcorder: 'Camera',
  camera: 'Camera',
};
/** The v3 file source of AniDB's source text (`Blu-ray`, `www`, …): `Other` when unknown to us, `Unknown` when empty. */
export const fileSourceOf = (anidbSource: string | null): keyof FileSourceCounts =>
  anidbSource ? (FILE_SOURCE_BY_ANIDB[anidbSource.toLowerCase()] ?? 'Other') : 'Unknown';

const zeroCounts = (): EpisodeTypeCounts => Object.fromEntries(EpisodeTypeCountKeys.map((k) => [k, 0])) as EpisodeTypeCounts;
export const emptySizes = (): SeriesSizes => ({
  Hidden: 0,
  FileSources: Object.fromEntries(FileSourceKeys.map((k) => [k, 0])) as FileSourceCounts,
  Local: zeroCounts(),
  Watched: zeroCounts(),
  Missing: { Episodes: 0, Specials: 0 },
  Total: zeroCounts(),
});

export const iso = (text: string) => new Date(text).toISOString();

export const emptyImages = (): Images => ({ Posters: [], Backdrops: [], Banners: [], Logos: [] });

/** An AniDB picture as a collection image of the given type (`Poster`, `Staff`, `Character`), or null without a picture. */
export const anidbImage = (id: number, type: string, picture: string | null): CollectionImage | null =>
  picture
    ? {
        ID: id,
        Type: type,
        Source: 'AniDB',
        LanguageCode: null,
        RelativeFilepath: `/${picture}`,
        Preferred: false,
        Disabled: false,
        Width: null,
        Height: null,
      }
    : null;
export const posterOf = (animeId: number, picture: string | null) => anidbImage(animeId, 'Poster', picture);

export type SeriesRow = {
  id: number;
  anime_id: number;
  group_id: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  type: string | null;
  main_title: string | null;
  description: string | null;
  picture: string | null;
  air_date: string | null;
  end_date: string | null;
  rating: number | null;
  rating_votes: number | null;
  episode_count: number | null;
  restricted: number | null;
  resources: string | null;
};

const seasonsBetween = (airDate: string | null, endDate: string | null, today: string) => {
  if (!airDate) return [];
  const names = ['Winter', 'Spring', 'Summer', 'Fall'];
  const start = new Date(`${airDate.slice(0, 10)}T00:00:00Z`);
  const end = new Date(`${(endDate ?? (airDate > today ? airDate : today)).slice(0, 10)}T00:00:00Z`);
  const result: Array<{ Year: number; AnimeSeason: string }> = [];
  for (let y = start.getUTCFullYear(), q = Math.floor(start.getUTCMonth() / 3); result.length < 40; q++) {
    if (q === 4) {
      q = 0;
      y++;
    }
    if (y > end.getUTCFullYear() || (y === end.getUTCFullYear() && q > Math.floor(end.getUTCMonth() / 3))) break;
    result.push({ Year: y, AnimeSeason: names[q] });
  }
  return result;
};

/** The series' read side: who may see which series, their rows, per-viewer sizes and votes, and the Series API models. */
export class SeriesBrowseStore {
  constructor(
    protected readonly db: Kysely<Database>,
    readonly dialect: DialectName,
    private readonly accounts = new AccountCache(),
  ) {}

  get kysely() {
    return this.db;
  }

  async viewer(userId: number | null): Promise<Viewer> {
    if (!userId) return { userId: 0, restrictedTags: [] };
    const tags = await this.accounts.read(`restricted:${userId}`, () => this.restrictedTags(userId));
    // A copy: callers may sort or extend it.
    return { userId, restrictedTags: [...tags] };
  }

  private async restrictedTags(userId: number): Promise<number[]> {
    const row = await this.db.selectFrom('users').select('restricted_tags').where('id', '=', userId).executeTakeFirst();
    try {
      return (JSON.parse(row?.restricted_tags ?? '[]') as unknown[]).map(Number).filter(Number.isInteger);
    } catch {
      return [];
    }
  }

  /** SQL condition: the series row `alias` is visible to the viewer. */
  seriesAllowed(viewer: Viewer, alias: string): RawBuilder<unknown> {
    if (!viewer.restrictedTags.length) return sql.raw('1 = 1');
    return sql`NOT EXISTS (SELECT 1 FROM anidb_anime_tags rt WHERE rt.anime_id = ${sql.raw(alias)}.anime_id AND rt.tag_id IN (${sql.join(viewer.restrictedTags)}))`;
  }

  async isSeriesAllowed(viewer: Viewer, animeId: number): Promise<boolean> {
    if (!viewer.restrictedTags.length) return true;
    const hit = await this.db
      .selectFrom('anidb_anime_tags')
      .select('tag_id')
      .where('anime_id', '=', animeId)
      .where('tag_id', 'in', viewer.restrictedTags)
      .limit(1)
      .executeTakeFirst();
    return !hit;
  }

  async allowedSeriesIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
    if (!viewer.restrictedTags.length) return new Set(ids);
    if (!ids.length) return new Set();
    const hidden = await this.db
      .selectFrom('series as s')
      .innerJoin('anidb_anime_tags as t', 't.anime_id', 's.anime_id')
      .select('s.id')
      .where('s.id', 'in', ids)
      .where('t.tag_id', 'in', viewer.restrictedTags)
      .execute();
    const blocked = new Set(hidden.map((r) => r.id));
    return new Set(ids.filter((id) => !blocked.has(id)));
  }

  async seriesRows(where: { ids?: number[]; groupIds?: number[] }): Promise<SeriesRow[]> {
    if ((where.ids && !where.ids.length) || (where.groupIds && !where.groupIds.length)) return [];
    let query = this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.group_id', 's.title_override', 's.created_at', 's.updated_at'])
      .select([
        'a.type',
        'a.main_title',
        'a.description',
        'a.picture',
        'a.air_date',
        'a.end_date',
        'a.rating',
        'a.rating_votes',
        'a.episode_count',
        'a.restricted',
        'a.resources',
      ]);
    if (where.ids) query = query.where('s.id', 'in', where.ids);
    if (where.groupIds) query = query.where('s.group_id', 'in', where.groupIds);
    return (await query.execute()) as SeriesRow[];
  }

  /**
   * Per-series sizes for one viewer: episode counts by type, local/watched/missing, file sources. All come from the
   * maintained series figures, brought up to date first: episodes per AniDB type, missing ones by air date and the
   * viewer's watched ones per type (migration 0048, db/series-sizes.ts), file sources from the series aggregates (0023).
   * Reading every episode with its AniDB row and watch state instead was most of a page of models on PostgreSQL
   * (1,183 episodes, 3 index probes each, for one release-management page at 400k files).
   */
  async sizes(seriesIds: number[], userId: number, today: string): Promise<Map<number, SeriesSizes>> {
    const result = new Map<number, SeriesSizes>(seriesIds.map((id) => [id, emptySizes()]));
    if (!seriesIds.length) return result;
    await refreshSeriesAggregates(this.db, this.dialect);
    const countKey = (type: string) => (type ? (COUNT_KEY_BY_EPISODE_TYPE[type] ?? 'Others') : 'Unknown');
    for (let i = 0; i < seriesIds.length; i += 500) {
      const chunk = seriesIds.slice(i, i + 500);
      // One statement (one round trip, one pooled connection) over the five tables: `part` says which each row is.
      const ids = sql.join(chunk);
      const { rows } = await sql<{ sid: number; part: number; label: string; n: number | string; local: number; hidden: number }>`
        SELECT series_id AS sid, 0 AS part, type AS label, visible_count AS n, local_count AS local, hidden_count AS hidden
          FROM series_type_counts WHERE series_id IN (${ids})
        UNION ALL SELECT series_id, 1, type, SUM(episode_count), 0, 0 FROM series_missing_air
          WHERE series_id IN (${ids}) AND air_date <= ${today} GROUP BY series_id, type
        UNION ALL SELECT series_id, 2, type, watched_local_count, 0, 0 FROM series_user_type_counts
          WHERE user_id = ${userId} AND series_id IN (${ids})
        UNION ALL SELECT series_id, 3, value, file_count, 0, 0 FROM series_aggregate_values WHERE kind = 'source' AND series_id IN (${ids})
        UNION ALL SELECT series_id, 4, '', file_count, 0, 0 FROM series_aggregates WHERE series_id IN (${ids})`.execute(this.db);
      for (const row of rows) {
        const sizes = result.get(row.sid)!;
        const n = Number(row.n);
        switch (Number(row.part)) {
          case 0: {
            const key = countKey(row.label);
            sizes.Hidden += Number(row.hidden);
            sizes.Total[key] += n;
            sizes.Local[key] += Number(row.local);
            break;
          }
          case 1:
            sizes.Missing[row.label === 'Special' ? 'Specials' : 'Episodes'] += n;
            break;
          case 2:
            sizes.Watched[countKey(row.label)] += n;
            break;
          // Files AniDB knows no source of (or nothing of) are the series' files the source rows leave over.
          case 3:
            if (!row.label) break;
            sizes.FileSources[fileSourceOf(row.label)] += n;
            sizes.FileSources.Unknown -= n;
            break;
          case 4:
            sizes.FileSources.Unknown += n;
            break;
        }
      }
    }
    return result;
  }

  async votes(seriesIds: number[], userId: number) {
    if (!seriesIds.length || !userId) return new Map<number, { value: number; type: string }>();
    const rows = await this.db
      .selectFrom('user_series_votes')
      .select(['series_id', 'value', 'vote_type'])
      .where('user_id', '=', userId)
      .where('series_id', 'in', seriesIds)
      .execute();
    return new Map(rows.map((r) => [r.series_id, { value: r.value, type: r.vote_type }]));
  }

  /** Series API models in the order of `ids` (ids that don't exist are skipped). */
  async seriesModels(ids: number[], viewer: Viewer, options: { includeAniDB?: boolean; includeTMDB?: boolean } = {}): Promise<Series[]> {
    const today = new Date().toISOString().slice(0, 10);
    // None of these needs another's answer (the titles are read by series id, the top groups after the rows only
    // where groups nest): on PostgreSQL they run side by side on the pool instead of one round trip after another.
    const [rows, sizes, votes, titles, nested] = await Promise.all([
      this.seriesRows({ ids }),
      this.sizes(ids, viewer.userId, today),
      this.votes(ids, viewer.userId),
      options.includeAniDB ? this.titlesOfSeries(ids) : new Map<number, AnidbAnimeSummary['Titles']>(),
      nestedGroups(this.db),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const tops = await topGroupsOf(
      this.db,
      rows.map((r) => r.group_id),
      nested,
    );
    return ids
      .map((id) => byId.get(id))
      .filter((r): r is SeriesRow => !!r)
      .map((row) => {
        const size = sizes.get(row.id)!;
        const vote = votes.get(row.id);
        const poster = posterOf(row.anime_id, row.picture);
        const images = emptyImages();
        if (poster) images.Posters.push(poster);
        const series: Series = {
          IDs: {
            ID: row.id,
            ParentGroup: row.group_id,
            TopLevelGroup: tops.get(row.group_id) ?? row.group_id,
            AniDB: row.anime_id,
            TvDB: [],
            IMDB: [],
            TMDB: { Movie: [], Show: [] },
            MAL: [],
          },
          Name: row.title_override ?? row.main_title ?? '',
          Size: EpisodeTypeCountKeys.filter((k) => k !== 'Unknown').reduce((sum, k) => sum + size.Local[k], 0),
          HasCustomName: row.title_override !== null,
          Description: row.description ?? '',
          Images: images,
          UserRating: vote ? { Value: Math.round(vote.value * 10) / 10, MaxValue: 10, Source: 'User', Votes: 1, Type: vote.type } : null,
          AirsOn: [],
          YearlySeasons: seasonsBetween(row.air_date, row.end_date, today),
          Links: safeJson(row.resources, []),
          Sizes: size,
          Created: iso(row.created_at),
          Updated: iso(row.updated_at),
        };
        if (options.includeAniDB) series.AniDB = this.anidbSummary(row, titles.get(row.anime_id) ?? []);
        if (options.includeTMDB) series.TMDB = { Movies: [], Shows: [] };
        return series;
      });
  }

  private anidbSummary(row: SeriesRow, titles: AnidbAnimeSummary['Titles']): AnidbAnimeSummary {
    return {
      ID: row.anime_id,
      ShokoID: row.id,
      Type: animeType(row.type),
      Title: row.main_title ?? '',
      Titles: titles,
      Description: row.description ?? '',
      Restricted: !!row.restricted,
      Poster: posterOf(row.anime_id, row.picture),
      EpisodeCount: row.episode_count ?? 0,
      AirDate: row.air_date,
      EndDate: row.end_date,
      Rating: { Value: row.rating ?? 0, MaxValue: 1000, Source: 'AniDB', Votes: row.rating_votes ?? 0, Type: null },
    };
  }

  /** AniDB titles of the given series' anime, by anime id. */
  private async titlesOfSeries(seriesIds: number[]) {
    const result = new Map<number, AnidbAnimeSummary['Titles']>();
    if (!seriesIds.length) return result;
    const rows = await this.db
      .selectFrom('anidb_anime_titles')
      .select(['anime_id', 'type', 'language', 'value'])
      .where('anime_id', 'in', (eb) => eb.selectFrom('series').select('anime_id').where('id', 'in', seriesIds))
      .execute();
    for (const row of rows) {
      const list = result.get(row.anime_id) ?? [];
      const type = row.type.charAt(0).toUpperCase() + row.type.slice(1);
      list.push({ Name: row.value, Language: row.language, Type: type, Default: row.type === 'main', Preferred: false, Source: 'AniDB' });
      result.set(row.anime_id, list);
    }
    return result;
  }
}

export const byAirDate = (a: { air_date: string | null; id: number }, b: { air_date: string | null; id: number }) =>
  (a.air_date ?? '9999') < (b.air_date ?? '9999') ? -1 : (a.air_date ?? '9999') > (b.air_date ?? '9999') ? 1 : a.id - b.id;

function safeJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
