import { sql, type Kysely } from 'kysely';
import type { AnidbEpisode, Episode, IncludeOnlyFilter } from '@shoko-ts/contract';
import type { Database } from '../../db/schema.js';

/** Raw episode order of the contract: Episode, Credits, Special, Trailer, Parody, Other. */
const TYPE_ORDER = ['Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other'];

export interface EpisodeRow {
  id: number;
  series_id: number;
  anidb_episode_id: number;
  is_hidden: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  anime_id: number;
  type: string;
  number: number;
  length_seconds: number;
  air_date: string | null;
  rating: number;
  votes: number;
  description: string;
  titles: string;
  watched_at: string | null;
  watch_count: number | null;
  user_rating: number | null;
  files: number;
}

export interface EpisodeFilter {
  includeMissing: IncludeOnlyFilter;
  includeUnaired: IncludeOnlyFilter;
  includeHidden: IncludeOnlyFilter;
  includeWatched: IncludeOnlyFilter;
  includeVoted: IncludeOnlyFilter;
  types: string[];
  search?: string;
}

const keep = (filter: IncludeOnlyFilter, matches: boolean) => (filter === 'only' ? matches : filter === 'false' ? !matches : true);
const iso = (text: string) => new Date(text).toISOString();
export const timeSpan = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(s / 86400);
  const text = `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days ? `${days}.${text}` : text;
};
const normalise = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

type StoredTitle = { language: string; value: string };
const parseTitles = (text: string | null): StoredTitle[] => {
  try {
    return text ? (JSON.parse(text) as StoredTitle[]) : [];
  } catch {
    return [];
  }
};
/** English title, else romaji, else the first one. */
const shownTitle = (titles: StoredTitle[], number: number) =>
  titles.find((t) => t.language === 'en')?.value ??
  titles.find((t) => t.language === 'x-jat')?.value ??
  titles[0]?.value ??
  `Episode ${number}`;

/** §2.5 AnidbEpisode from an `anidb_episodes` row. */
export function anidbEpisodeModel(row: {
  id: number;
  anime_id: number;
  type: string;
  number: number;
  air_date: string | null;
  titles: string;
  description: string | null;
  rating: number | null;
  votes: number | null;
}): AnidbEpisode {
  const titles = parseTitles(row.titles);
  const shown = shownTitle(titles, row.number);
  return {
    ID: row.id,
    AnimeID: row.anime_id,
    Type: row.type,
    EpisodeNumber: row.number,
    AirDate: row.air_date,
    Title: shown,
    Titles: titles.map((t) => ({
      Name: t.value,
      Language: t.language,
      Type: 'None',
      Default: false,
      Preferred: t.value === shown,
      Source: 'AniDB',
    })),
    Description: row.description ?? '',
    Rating: { Value: (row.rating ?? 0) / 100, MaxValue: 10, Source: 'AniDB', Votes: row.votes ?? 0, Type: null },
  };
}

/** Episodes of local series with the viewer's watch state, file counts and the AniDB episode data. */
export class SeriesStore {
  constructor(private readonly db: Kysely<Database>) {}

  get kysely() {
    return this.db;
  }

  async series(id: number) {
    return (await this.db.selectFrom('series').select(['id', 'anime_id', 'group_id']).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async episodeRef(id: number) {
    return (
      (await this.db
        .selectFrom('episodes as e')
        .leftJoin('series as s', 's.id', 'e.series_id')
        .select(['e.id', 'e.series_id', 'e.anidb_episode_id', 's.anime_id'])
        .where('e.id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  /** Episode rows (with AniDB data only) of one series or a set of episode ids, for one user. */
  /** Episodes of a series with at least one file linked by hand (a link not from AniDB). */
  async manuallyLinkedEpisodeIds(seriesId: number): Promise<Set<number>> {
    const rows = await this.kysely
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .select('e.id')
      .distinct()
      .where('e.series_id', '=', seriesId)
      .where('l.source', '<>', 'AniDB')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async rows(where: { seriesId?: number; episodeIds?: number[] }, userId: number): Promise<EpisodeRow[]> {
    if (where.episodeIds && !where.episodeIds.length) return [];
    const condition = where.seriesId !== undefined ? sql`e.series_id = ${where.seriesId}` : sql`e.id IN (${sql.join(where.episodeIds!)})`;
    const { rows } = await sql<EpisodeRow>`
      SELECT e.id, e.series_id, e.anidb_episode_id, e.is_hidden, e.title_override, e.created_at, e.updated_at,
        ae.anime_id, ae.type, ae.number, ae.length_seconds, ae.air_date, ae.rating, ae.votes, ae.description, ae.titles,
        w.watched_at, w.watch_count, w.rating AS user_rating,
        (SELECT COUNT(*) FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = e.anidb_episode_id) AS files
      FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        LEFT JOIN user_episode_states w ON w.episode_id = e.id AND w.user_id = ${userId}
      WHERE ${condition}`.execute(this.db);
    return rows.map((r) => ({ ...r, files: Number(r.files), is_hidden: Number(r.is_hidden) }));
  }

  /** Applies the §5.5 filters and ordering to a series' episode rows. */
  select(rows: EpisodeRow[], filter: EpisodeFilter, today = new Date().toISOString().slice(0, 10)): EpisodeRow[] {
    const types = filter.types.map((t) => t.toLowerCase());
    let list = rows.filter((row) => {
      if (types.length && !types.includes(row.type.toLowerCase())) return false;
      const hasFiles = row.files > 0;
      const aired = !!row.air_date && row.air_date.slice(0, 10) <= today;
      return (
        keep(filter.includeHidden, row.is_hidden === 1) &&
        keep(filter.includeMissing, !hasFiles && aired) &&
        keep(filter.includeUnaired, !hasFiles && !aired) &&
        keep(filter.includeWatched, !!row.watched_at) &&
        keep(filter.includeVoted, row.user_rating !== null)
      );
    });
    const needle = filter.search ? normalise(filter.search) : '';
    if (needle) {
      const score = (row: EpisodeRow) => {
        const names = [row.title_override ?? '', ...parseTitles(row.titles).map((t) => t.value)].map(normalise).filter(Boolean);
        let best = 0;
        for (const name of names) {
          if (name === needle) best = Math.max(best, 3);
          else if (name.startsWith(needle)) best = Math.max(best, 2);
          else if (name.includes(needle)) best = Math.max(best, 1);
        }
        return best;
      };
      list = list
        .map((row) => ({ row, s: score(row) }))
        .filter((x) => x.s > 0)
        .sort((a, b) => b.s - a.s || this.compare(a.row, b.row))
        .map((x) => x.row);
    } else {
      list.sort((a, b) => this.compare(a, b));
    }
    return list;
  }

  private compare(a: EpisodeRow, b: EpisodeRow) {
    const rank = (t: string) => (TYPE_ORDER.indexOf(t) === -1 ? TYPE_ORDER.length : TYPE_ORDER.indexOf(t));
    return rank(a.type) - rank(b.type) || a.number - b.number || a.id - b.id;
  }

  /** §2.4 Episode models of the rows. */
  models(rows: EpisodeRow[], options: { includeAniDB?: boolean; includeTMDB?: boolean } = {}): Episode[] {
    return rows.map((row) => {
      const shown = shownTitle(parseTitles(row.titles), row.number);
      const episode: Episode = {
        IDs: {
          ID: row.id,
          ParentSeries: row.series_id,
          AniDB: row.anidb_episode_id,
          TvDB: [],
          IMDB: [],
          TMDB: { Episode: [], Movie: [], Show: [] },
        },
        Name: row.title_override ?? shown,
        Size: row.files,
        HasCustomName: row.title_override !== null,
        Description: row.description ?? '',
        Images: { Posters: [], Backdrops: [], Banners: [], Logos: [], Thumbnails: [] },
        Duration: timeSpan(row.length_seconds ?? 0),
        ResumePosition: null,
        WatchCount: row.watch_count ?? 0,
        IsHidden: row.is_hidden === 1,
        UserRating: row.user_rating === null ? null : { Value: row.user_rating, MaxValue: 10, Source: 'User', Votes: 1, Type: 'Episode' },
        Watched: row.watched_at ? iso(row.watched_at) : null,
        Created: iso(row.created_at),
        Updated: iso(row.updated_at),
      };
      if (options.includeAniDB)
        episode.AniDB = anidbEpisodeModel({
          id: row.anidb_episode_id,
          anime_id: row.anime_id,
          type: row.type,
          number: row.number,
          air_date: row.air_date,
          titles: row.titles,
          description: row.description,
          rating: row.rating,
          votes: row.votes,
        });
      if (options.includeTMDB) episode.TMDB = { Episodes: [], Movies: [] };
      return episode;
    });
  }

  /** Sets or clears the watched state of episodes for one user. */
  async setWatched(userId: number, episodeIds: number[], watched: boolean) {
    if (!episodeIds.length) return;
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const existing = new Map(
        (
          await trx
            .selectFrom('user_episode_states')
            .select(['episode_id', 'watch_count', 'watched_at'])
            .where('user_id', '=', userId)
            .where('episode_id', 'in', episodeIds)
            .execute()
        ).map((r) => [r.episode_id, r]),
      );
      const fresh = episodeIds.filter((id) => !existing.has(id));
      if (watched && fresh.length)
        await trx
          .insertInto('user_episode_states')
          .values(fresh.map((id) => ({ user_id: userId, episode_id: id, watched_at: now, watch_count: 1, rating: null, updated_at: now })))
          .execute();
      const toUpdate = [...existing.values()].filter((r) => (watched ? !r.watched_at : !!r.watched_at)).map((r) => r.episode_id);
      if (!toUpdate.length) return;
      if (watched)
        await trx
          .updateTable('user_episode_states')
          .set({ watched_at: now, watch_count: sql`watch_count + 1`, updated_at: now })
          .where('user_id', '=', userId)
          .where('episode_id', 'in', toUpdate)
          .execute();
      else
        await trx
          .updateTable('user_episode_states')
          .set({ watched_at: null, updated_at: now })
          .where('user_id', '=', userId)
          .where('episode_id', 'in', toUpdate)
          .execute();
    });
  }

  async setHidden(episodeId: number, hidden: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('episodes')
      .set({ is_hidden: hidden ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', episodeId)
      .where('is_hidden', '=', hidden ? 0 : 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async vote(userId: number, seriesId: number, value: number | null, type: 'Permanent' | 'Temporary') {
    await this.db.deleteFrom('user_series_votes').where('user_id', '=', userId).where('series_id', '=', seriesId).execute();
    if (value === null) return;
    await this.db
      .insertInto('user_series_votes')
      .values({ user_id: userId, series_id: seriesId, value, vote_type: type, updated_at: new Date().toISOString() })
      .execute();
  }

  /** Sets (or with null clears) the user's episode rating, keeping the watch state. */
  async voteEpisode(userId: number, episodeId: number, value: number | null) {
    const now = new Date().toISOString();
    const existing = await this.db
      .selectFrom('user_episode_states')
      .select('episode_id')
      .where('user_id', '=', userId)
      .where('episode_id', '=', episodeId)
      .executeTakeFirst();
    if (existing)
      await this.db
        .updateTable('user_episode_states')
        .set({ rating: value, updated_at: now })
        .where('user_id', '=', userId)
        .where('episode_id', '=', episodeId)
        .execute();
    else if (value !== null)
      await this.db
        .insertInto('user_episode_states')
        .values({ user_id: userId, episode_id: episodeId, watched_at: null, watch_count: 0, rating: value, updated_at: now })
        .execute();
  }
}
