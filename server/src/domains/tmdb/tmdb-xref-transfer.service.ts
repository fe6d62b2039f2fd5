import type { Logger } from 'pino';
import {
  TMDB_XREF_SECTIONS,
  type IncludeOnlyFilter,
  type TmdbExportBody,
  type TmdbImportQuery,
  type TmdbXrefSection,
} from '@shoko-ts/contract';
import { validationError } from '../../http/problem.js';
import { includeOnly } from '../../http/list-query.js';
import { includeOnlyMatches } from './tmdb-local-models.js';
import type { TmdbSync } from './tmdb-sync.service.js';
import { parseJson } from './tmdb.store.js';
import { CsvFormatError, parseXrefCsv, writeXrefCsv, type CsvSection, type ParsedLinks } from './tmdb-xref-csv.js';
import type {
  AllLinks,
  CommentLookups,
  EpisodeLinkRow,
  LinkChanges,
  MovieLinkRow,
  NewEpisodeLinkRow,
  ShowLinkRow,
  TmdbXrefTransferStore,
} from './tmdb-xref-transfer.store.js';

/**
 * DESIGN: `Tmdb/Export` and `Tmdb/Import` — the AniDB ↔ TMDB cross-references as a CSV file (format in
 * tmdb-xref-csv.ts), to carry links between installs or keep them in version control.
 *
 * Show and movie links store only who made them (User / Automatic); in the file they are `UserVerified` and
 * `FirstAvailable` (the rating Shoko gives a link the automatic search made), and any rating but `UserVerified` reads
 * back as automatic. Episode links keep their MatchRating.
 *
 * Import reads every line before it changes anything and writes in one transaction, so a bad file changes nothing.
 * Differences from Shoko, on purpose: a show line's rating is kept (Shoko stores every new show link as user-verified,
 * so a round trip turned automatic show links into user ones); new episode links of one AniDB episode are numbered in
 * file order (Shoko gives them all index 0); a file without cross-references is refused (Shoko records that error and
 * then carries on); an export body without `SectionSet` exports every section (Shoko's exports nothing).
 */
export class TmdbXrefTransfer {
  constructor(
    private readonly deps: {
      store: TmdbXrefTransferStore;
      sync: Pick<TmdbSync, 'queueMovie' | 'queueShow'>;
      logger: Logger;
    },
  ) {}

  async exportCsv(body: TmdbExportBody | null | undefined): Promise<string> {
    const options = exportOptions(body);
    const all = await this.deps.store.allLinks();
    const episodesWithTmdbEpisode = new Set(all.episodes.filter((x) => x.tmdb_episode_id > 0).map((x) => `${x.anime_id}:${x.show_id}`));
    const selected: AllLinks = {
      movies: options.sections.has('Movie')
        ? all.movies.filter(
            (x) =>
              options.automatic(x.source !== 'User') &&
              options.keep({ anime: x.anime_id, anidbEpisode: x.anidb_episode_id, movie: x.movie_id }),
          )
        : [],
      shows: options.sections.has('Show')
        ? all.shows.filter(
            (x) =>
              x.show_id > 0 &&
              options.automatic(x.source !== 'User') &&
              options.withEpisodes(episodesWithTmdbEpisode.has(`${x.anime_id}:${x.show_id}`)) &&
              options.keep({ anime: x.anime_id, show: x.show_id }),
          )
        : [],
      episodes: options.sections.has('Episode')
        ? all.episodes.filter(
            (x) =>
              options.automatic(x.rating !== 'UserVerified') &&
              options.withEpisodes(x.tmdb_episode_id > 0) &&
              options.keep({ anime: x.anime_id, anidbEpisode: x.anidb_episode_id, show: x.show_id, tmdbEpisode: x.tmdb_episode_id }),
          )
        : [],
    };
    const names = options.comments ? await this.deps.store.commentLookups(selected) : null;
    const sections: CsvSection[] = [
      {
        section: 'Movie',
        rows: selected.movies.map((x) => ({
          line: `${x.anime_id},${x.anidb_episode_id},${x.movie_id},${ratingOfSource(x.source)}`,
          comment: names ? movieComment(x, names) : '',
        })),
      },
      {
        section: 'Show',
        rows: selected.shows.map((x) => ({
          line: `${x.anime_id},${x.show_id},${ratingOfSource(x.source)}`,
          comment: names ? `${anidbPart(x.anime_id, names)} → TMDB: ${quoted(names.shows.get(x.show_id))} (s${x.show_id})` : '',
        })),
      },
      {
        section: 'Episode',
        rows: selected.episodes.map((x) => ({
          line: `${x.anime_id},${x.anidb_episode_id},${x.show_id},${x.tmdb_episode_id},${x.rating}`,
          comment: names ? episodeComment(x, names) : '',
        })),
      },
    ];
    return writeXrefCsv(sections, options.comments);
  }

  /** Imports a CSV file (see the DESIGN note); a bad file is a 400 keyed `Body` naming each bad line. */
  async importCsv(text: string, options: TmdbImportQuery): Promise<ImportSummary> {
    let parsed: ParsedLinks;
    try {
      parsed = parseXrefCsv(text);
    } catch (error) {
      if (error instanceof CsvFormatError) throw validationError('Body', ...error.messages);
      throw error;
    }
    const { summary } = await this.deps.store.importLinks((existing) => planImport(parsed, existing, options.removeExisting));
    const queued = await this.queueMissing(parsed, options);
    this.deps.logger.info(
      { ...summary, ...queued },
      `Imported TMDB cross-references: movies +${summary.movies.added} ~${summary.movies.updated} -${summary.movies.removed}, ` +
        `shows +${summary.shows.added} ~${summary.shows.updated}, episodes +${summary.episodes.added} ~${summary.episodes.updated} ` +
        `-${summary.episodes.removed}; queued ${queued.moviesQueued} movie and ${queued.showsQueued} show downloads`,
    );
    return { ...summary, ...queued };
  }

  /** Linked TMDB movies and shows that are not stored yet are queued for download, for anime that have a series. */
  private async queueMissing(parsed: ParsedLinks, options: TmdbImportQuery) {
    const { store, sync } = this.deps;
    const movies = options.addMissingMovies ? parsed.movies : [];
    const shows = options.addMissingShows ? parsed.shows.filter((x) => x.showId > 0) : [];
    const episodes = options.addMissingShows ? parsed.episodes.filter((x) => x.showId > 0) : [];
    const withSeries = await store.animeWithSeries([...movies, ...shows, ...episodes].map((x) => x.animeId));
    const stored = await store.storedTmdbIds({
      movies: movies.map((x) => x.movieId),
      shows: shows.map((x) => x.showId),
      episodes: episodes.map((x) => x.tmdbEpisodeId),
    });
    const moviesToQueue = new Set(movies.filter((x) => withSeries.has(x.animeId) && !stored.movies.has(x.movieId)).map((x) => x.movieId));
    const showsToQueue = new Set([
      ...shows.filter((x) => withSeries.has(x.animeId) && !stored.shows.has(x.showId)).map((x) => x.showId),
      // A "no link" line has no TMDB episode to miss; any other line whose TMDB episode is not stored needs its show.
      ...episodes
        .filter((x) => withSeries.has(x.animeId) && x.tmdbEpisodeId > 0 && !stored.episodes.has(x.tmdbEpisodeId))
        .map((x) => x.showId),
    ]);
    for (const movieId of moviesToQueue) await sync.queueMovie(movieId);
    for (const showId of showsToQueue) await sync.queueShow(showId);
    return { moviesQueued: moviesToQueue.size, showsQueued: showsToQueue.size };
  }
}

interface Counts {
  added: number;
  updated: number;
  removed: number;
}
export interface ImportSummary {
  movies: Counts;
  shows: Counts;
  episodes: Counts;
  moviesQueued: number;
  showsQueued: number;
}

// ── export options ───────────────────────────────────────────────────────────────────────────

const INCLUDE_ONLY_NUMBERS: IncludeOnlyFilter[] = ['false', 'true', 'only'];

function includeOnlyOf(value: string | number | undefined, field: string): IncludeOnlyFilter {
  const number = typeof value === 'number' ? value : value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  if (number === undefined) return includeOnly(value as string | undefined, 'true', field);
  const filter = INCLUDE_ONLY_NUMBERS[number];
  if (!filter) throw validationError(field, `The value '${value}' is not valid for ${field}.`);
  return filter;
}

/** SectionSet entries: names in any case or flag numbers (a number may combine flags, 1 | 2 | 4). */
function sectionsOf(entries: (string | number)[] | null | undefined): Set<TmdbXrefSection> {
  const all = Object.entries(TMDB_XREF_SECTIONS) as [TmdbXrefSection, number][];
  if (entries === undefined || entries === null) return new Set(all.map(([section]) => section));
  const sections = new Set<TmdbXrefSection>();
  for (const entry of entries) {
    const name = String(entry).trim().toLowerCase();
    if (/^\d+$/.test(name)) {
      const flags = Number(name);
      if (flags > 7) throw validationError('SectionSet', `The value '${entry}' is not a section.`);
      for (const [section, flag] of all) if (flags & flag) sections.add(section);
      continue;
    }
    if (name === 'none') continue;
    const match = all.find(([section]) => section.toLowerCase() === name);
    if (!match)
      throw validationError('SectionSet', `The value '${String(entry).slice(0, 100)}' is not a section (Movie, Show or Episode).`);
    sections.add(match[0]);
  }
  return sections;
}

interface LinkIds {
  anime: number;
  anidbEpisode?: number;
  movie?: number;
  show?: number;
  tmdbEpisode?: number;
}

/** The body's options as predicates; an id filter applies to the sections whose links carry that id. */
function exportOptions(body: TmdbExportBody | null | undefined) {
  const automatic = includeOnlyOf(body?.Automatic, 'Automatic');
  const withEpisodes = includeOnlyOf(body?.WithEpisodes, 'WithEpisodes');
  const wanted = (filter: number | null | undefined, value: number | undefined) =>
    filter === null || filter === undefined || value === undefined || filter === value;
  return {
    sections: sectionsOf(body?.SectionSet),
    comments: body?.IncludeComments ?? false,
    automatic: (isAutomatic: boolean) => includeOnlyMatches(automatic, isAutomatic),
    withEpisodes: (hasEpisode: boolean) => includeOnlyMatches(withEpisodes, hasEpisode),
    keep: (ids: LinkIds) =>
      wanted(body?.AnidbAnimeID, ids.anime) &&
      wanted(body?.AnidbEpisodeID, ids.anidbEpisode) &&
      wanted(body?.TmdbMovieID, ids.movie) &&
      wanted(body?.TmdbShowID, ids.show) &&
      wanted(body?.TmdbEpisodeID, ids.tmdbEpisode),
  };
}

const ratingOfSource = (source: 'User' | 'Automatic') => (source === 'User' ? 'UserVerified' : 'FirstAvailable');
const sourceOfRating = (rating: string): 'User' | 'Automatic' => (rating === 'UserVerified' ? 'User' : 'Automatic');

// ── comments ─────────────────────────────────────────────────────────────────────────────────

const ANIME_TYPE_CODES: Record<string, string> = {
  movie: 'MV',
  ova: 'VA',
  tv: 'TV',
  tvseries: 'TV',
  tvspecial: 'SP',
  web: 'WB',
  other: 'OT',
};

const quoted = (title: string | undefined) => (title ? `\`\`${title}\`\`` : '<missing title>');

function anidbPart(animeId: number, names: CommentLookups): string {
  const anime = names.anime.get(animeId);
  const type = (anime && ANIME_TYPE_CODES[anime.type.replace(/\s+/g, '').toLowerCase()]) ?? '??';
  return `AniDB: ${type} ${quoted(anime?.title)} (a${animeId})`;
}

function anidbEpisodePart(episodeId: number, names: CommentLookups): string {
  const episode = names.anidbEpisodes.get(episodeId);
  if (!episode) return `??? <missing title> (e${episodeId})`;
  const number =
    episode.type === 'Episode'
      ? String(episode.number).padStart(3, '0')
      : `${episode.type[0] ?? '?'}${String(episode.number).padStart(2, '0')}`;
  const titles = parseJson<{ language: string; value: string }[]>(episode.titles, []);
  const title = (titles.find((t) => t.language === 'en') ?? titles[0])?.value;
  return `${number} ${quoted(title)} (e${episodeId})`;
}

function movieComment(x: MovieLinkRow, names: CommentLookups): string {
  return `${anidbPart(x.anime_id, names)} ${anidbEpisodePart(x.anidb_episode_id, names)} → TMDB: ${quoted(names.movies.get(x.movie_id))} (m${x.movie_id})`;
}

function episodeComment(x: EpisodeLinkRow, names: CommentLookups): string {
  const anidb = `${anidbPart(x.anime_id, names)} ${anidbEpisodePart(x.anidb_episode_id, names)}`;
  if (x.tmdb_episode_id === 0) return `${anidb} → TMDB: no episode`;
  const episode = names.tmdbEpisodes.get(x.tmdb_episode_id);
  const number = episode ? `S${String(episode.season).padStart(2, '0')} E${String(episode.episode).padStart(3, '0')}` : '??? ????';
  return `${anidb} → TMDB: ${quoted(names.shows.get(x.show_id))} (s${x.show_id}) ${number} ${quoted(episode?.title)} (e${x.tmdb_episode_id})`;
}

// ── import plan ──────────────────────────────────────────────────────────────────────────────

/** The last line wins when the file lists one link twice. */
const lastOf = <T>(items: T[], key: (item: T) => string) => [...new Map(items.map((item) => [key(item), item])).values()];

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * What an import changes, given every stored link. A listed link is added, or updated when the file moves it to
 * another anime or show or re-rates it (a link the user verified keeps its rating). With `removeExisting`, the other
 * links of each AniDB episode the file lists are removed; a real episode link always replaces a stored "no link" of
 * its AniDB episode. Shows of episode links that are not linked yet get a user link (show links are never removed).
 */
export function planImport(parsed: ParsedLinks, existing: AllLinks, removeExisting: boolean) {
  const changes: LinkChanges = {
    movies: { upsert: [], remove: [] },
    shows: { upsert: [] },
    episodes: { insert: [], update: [], remove: [] },
  };
  const summary = {
    movies: { added: 0, updated: 0, removed: 0 },
    shows: { added: 0, updated: 0, removed: 0 },
    episodes: { added: 0, updated: 0, removed: 0 },
  };

  // Movies: keyed like the table, by AniDB episode and movie.
  const moviesByEpisode = groupBy(existing.movies, (x) => x.anidb_episode_id);
  const movieLines = lastOf(parsed.movies, (x) => `${x.anidbEpisodeId}:${x.movieId}`);
  for (const line of movieLines) {
    const stored = moviesByEpisode.get(line.anidbEpisodeId)?.find((x) => x.movie_id === line.movieId);
    const source = stored?.source === 'User' ? 'User' : sourceOfRating(line.rating);
    if (stored && stored.anime_id === line.animeId && stored.source === source) continue;
    changes.movies.upsert.push({ anime_id: line.animeId, anidb_episode_id: line.anidbEpisodeId, movie_id: line.movieId, source });
    summary.movies[stored ? 'updated' : 'added']++;
  }
  if (removeExisting) {
    const listed = new Set(movieLines.map((x) => `${x.anidbEpisodeId}:${x.movieId}`));
    for (const episodeId of new Set(movieLines.map((x) => x.anidbEpisodeId))) {
      for (const stored of moviesByEpisode.get(episodeId) ?? []) {
        if (listed.has(`${stored.anidb_episode_id}:${stored.movie_id}`)) continue;
        changes.movies.remove.push({ anidb_episode_id: stored.anidb_episode_id, movie_id: stored.movie_id });
        summary.movies.removed++;
      }
    }
  }

  // Shows: the file's lines, then the shows its episode lines need.
  const shows = new Map<string, ShowLinkRow>(existing.shows.map((x) => [`${x.anime_id}:${x.show_id}`, x]));
  const setShow = (animeId: number, showId: number, wanted: 'User' | 'Automatic', onlyIfMissing: boolean) => {
    const key = `${animeId}:${showId}`;
    const stored = shows.get(key);
    if (stored && (onlyIfMissing || stored.source === 'User' || stored.source === wanted)) return;
    const row: ShowLinkRow = { anime_id: animeId, show_id: showId, source: wanted };
    shows.set(key, row);
    changes.shows.upsert.push(row);
    summary.shows[stored ? 'updated' : 'added']++;
  };
  for (const line of lastOf(parsed.shows, (x) => `${x.animeId}:${x.showId}`)) {
    if (line.showId > 0) setShow(line.animeId, line.showId, sourceOfRating(line.rating), false);
  }

  // Episodes: keyed like the table's unique index, by AniDB episode and TMDB episode.
  const episodesByAnidb = groupBy(existing.episodes, (x) => x.anidb_episode_id);
  const episodeLines = lastOf(parsed.episodes, (x) => `${x.anidbEpisodeId}:${x.tmdbEpisodeId}`);
  const linesByAnidb = groupBy(episodeLines, (x) => x.anidbEpisodeId);
  for (const [anidbEpisodeId, lines] of linesByAnidb) {
    const stored = episodesByAnidb.get(anidbEpisodeId) ?? [];
    const listed = new Set(lines.map((x) => x.tmdbEpisodeId));
    const hasRealLink = lines.some((x) => x.tmdbEpisodeId > 0);
    const removed = stored.filter((x) => !listed.has(x.tmdb_episode_id) && (removeExisting || (hasRealLink && x.tmdb_episode_id === 0)));
    changes.episodes.remove.push(...removed.map((x) => x.id));
    summary.episodes.removed += removed.length;
    const kept = stored.filter((x) => !removed.includes(x));
    let nextIndex = Math.max(-1, ...kept.map((x) => x.ordering)) + 1;
    for (const line of lines) {
      const match = kept.find((x) => x.tmdb_episode_id === line.tmdbEpisodeId);
      const fields = {
        anime_id: line.animeId,
        anidb_episode_id: anidbEpisodeId,
        show_id: line.showId,
        tmdb_episode_id: line.tmdbEpisodeId,
      };
      if (match) {
        const rating = match.rating === 'UserVerified' ? match.rating : line.rating;
        if (match.anime_id !== line.animeId || match.show_id !== line.showId || match.rating !== rating) {
          changes.episodes.update.push({ ...match, ...fields, rating });
          summary.episodes.updated++;
        }
      } else {
        const row: NewEpisodeLinkRow = { ...fields, ordering: nextIndex++, rating: line.rating };
        changes.episodes.insert.push(row);
        summary.episodes.added++;
      }
      if (line.showId > 0) setShow(line.animeId, line.showId, 'User', true);
    }
  }
  return { changes, summary };
}
