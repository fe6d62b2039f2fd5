import { TMDB_MATCH_RATINGS, TMDB_XREF_CSV_HEADERS, type TmdbMatchRating, type TmdbXrefSection } from '@shoko-ts/contract';

/**
 * The cross-reference CSV of `Tmdb/Export` / `Tmdb/Import`: up to three sections, each starting at its header line
 * (TMDB_XREF_CSV_HEADERS); `#` lines are comments, blank lines are skipped. Ratings are MatchRating names.
 */

export interface MovieLinkLine {
  animeId: number;
  anidbEpisodeId: number;
  movieId: number;
  rating: TmdbMatchRating;
}
export interface ShowLinkLine {
  animeId: number;
  showId: number;
  rating: TmdbMatchRating;
}
export interface EpisodeLinkLine {
  animeId: number;
  anidbEpisodeId: number;
  showId: number;
  /** 0 = the AniDB episode has no TMDB episode ("no link"). */
  tmdbEpisodeId: number;
  rating: TmdbMatchRating;
}

export interface ParsedLinks {
  movies: MovieLinkLine[];
  shows: ShowLinkLine[];
  episodes: EpisodeLinkLine[];
}

/** One section of an export: its rows, each with the comment that names what it links (shown when asked for). */
export interface CsvSection {
  section: TmdbXrefSection;
  rows: { line: string; comment: string }[];
}

const SECTION_TITLES: Record<TmdbXrefSection, string> = {
  Movie: 'AniDB/TMDB Movie Cross-References',
  Show: 'AniDB/TMDB Show Cross-References',
  Episode: 'AniDB/TMDB Episode Cross-References',
};

/** Writes the sections that have rows; with comments, each section and row gets a human-readable note. */
export function writeXrefCsv(sections: CsvSection[], withComments: boolean): string {
  const blocks: string[] = [];
  for (const { section, rows } of sections) {
    if (!rows.length) continue;
    const header = TMDB_XREF_CSV_HEADERS[section];
    if (!withComments) {
      blocks.push([header, ...rows.map((row) => row.line)].join('\n') + '\n');
      continue;
    }
    const rule = '#'.padEnd(header.length, '-');
    const lines = [rule, `# ${SECTION_TITLES[section]}`, header, rule];
    for (const row of rows) lines.push('', `# ${row.comment}`, row.line);
    blocks.push(lines.join('\n') + '\n');
  }
  return blocks.join(withComments ? '\n\n' : '');
}

export class CsvFormatError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join(' '));
  }
}

/** Beyond this many bad lines the rest are counted, not listed. */
const MAX_LINE_ERRORS = 20;

const HEADER_SECTIONS = new Map<string, TmdbXrefSection>(
  (Object.entries(TMDB_XREF_CSV_HEADERS) as [TmdbXrefSection, string][]).map(([section, header]) => [header.toLowerCase(), section]),
);
const RATINGS = new Map<string, TmdbMatchRating>(TMDB_MATCH_RATINGS.map((rating) => [rating.toLowerCase(), rating]));
const MAX_ID = 2 ** 31 - 1;

/** A whole number in range, or undefined. */
function id(cell: string, minimum: number): number | undefined {
  if (!/^\d{1,10}$/.test(cell)) return undefined;
  const value = Number(cell);
  return value >= minimum && value <= MAX_ID ? value : undefined;
}

/**
 * Reads an import file. Every line is checked before anything is used: a file with any bad line is refused as a
 * whole, naming each bad line (1-based) in `CsvFormatError.messages`.
 */
export function parseXrefCsv(text: string): ParsedLinks {
  const parsed: ParsedLinks = { movies: [], shows: [], episodes: [] };
  const errors: string[] = [];
  let badLines = 0;
  const fail = (message: string) => {
    badLines++;
    if (errors.length < MAX_LINE_ERRORS) errors.push(message);
  };
  let section: TmdbXrefSection | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  for (const [index, raw] of lines.entries()) {
    const lineNumber = index + 1;
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = HEADER_SECTIONS.get(line.replace(/\s+/g, '').toLowerCase());
    if (header) {
      section = header;
      continue;
    }
    if (!section) {
      throw new CsvFormatError([
        `Line ${lineNumber}: a cross-reference comes before any section header; the file must start a section with one of ` +
          `"${TMDB_XREF_CSV_HEADERS.Movie}", "${TMDB_XREF_CSV_HEADERS.Show}" or "${TMDB_XREF_CSV_HEADERS.Episode}".`,
      ]);
    }
    const current = section;
    const cells = line.split(',').map((cell) => cell.trim());
    const expected = TMDB_XREF_CSV_HEADERS[current].split(',').length;
    const rating = RATINGS.get(cells[cells.length - 1]!.toLowerCase());
    const invalid = (what: string) =>
      fail(
        `Line ${lineNumber}: not a valid ${current.toLowerCase()} cross-reference (${what}; expected "${TMDB_XREF_CSV_HEADERS[current]}").`,
      );
    if (cells.length !== expected) {
      invalid(`${cells.length} columns instead of ${expected}`);
      continue;
    }
    if (!rating) {
      invalid(`unknown rating "${cells[cells.length - 1]!.slice(0, 40)}"`);
      continue;
    }
    if (section === 'Movie') {
      const [animeId, anidbEpisodeId, movieId] = [id(cells[0]!, 1), id(cells[1]!, 1), id(cells[2]!, 1)];
      if (animeId === undefined || anidbEpisodeId === undefined || movieId === undefined) invalid('ids must be positive whole numbers');
      else parsed.movies.push({ animeId, anidbEpisodeId, movieId, rating });
    } else if (section === 'Show') {
      const [animeId, showId] = [id(cells[0]!, 1), id(cells[1]!, 0)];
      if (animeId === undefined || showId === undefined) invalid('ids must be whole numbers, the AniDB anime id positive');
      else parsed.shows.push({ animeId, showId, rating });
    } else {
      const [animeId, anidbEpisodeId, showId, tmdbEpisodeId] = [id(cells[0]!, 1), id(cells[1]!, 1), id(cells[2]!, 0), id(cells[3]!, 0)];
      if (animeId === undefined || anidbEpisodeId === undefined || showId === undefined || tmdbEpisodeId === undefined)
        invalid('ids must be whole numbers, the AniDB ids positive');
      else if (showId === 0 && tmdbEpisodeId !== 0) invalid('a TMDB episode needs its TMDB show');
      else parsed.episodes.push({ animeId, anidbEpisodeId, showId, tmdbEpisodeId, rating });
    }
  }
  if (badLines > errors.length) errors.push(`${badLines - errors.length} more lines could not be read.`);
  if (errors.length) throw new CsvFormatError(errors);
  if (!parsed.movies.length && !parsed.shows.length && !parsed.episodes.length)
    throw new CsvFormatError(['The file holds no cross-references to import.']);
  return parsed;
}
