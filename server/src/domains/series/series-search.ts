// The series' title search index over the shared title matching (shared/title-match.ts).
import { SHOKO_IMPORT_PROGRESS_EVENT } from '@shoko-ts/contract';
import { searchText } from '../../shared/title-match.js';
import type { SearchText } from '../../shared/title-match.js';

type TitleRow = { anime_id: number; type: string; language: string; value: string };
export type PreparedTitle = { type: string; language: string; text: SearchText };

/** A series as the index reads it: the parts of its name. */
export type SearchSeriesRow = { id: number; anime_id: number; title_override: string | null; main_title: string | null };

/** A series as searches compare it: its name and its anime's AniDB titles, in their search forms. */
export interface SearchableSeries {
  id: number;
  animeId: number;
  /** False when the AniDB anime is not stored: only a search by id finds it. */
  hasAnime: boolean;
  name: SearchText;
  titles: PreparedTitle[];
}

export interface SearchIndexSource {
  series(): Promise<SearchSeriesRow[]>;
  titles(animeIds: number[]): Promise<TitleRow[]>;
}

/** The tables the index reads: a job that wrote none of them left it current. */
const INDEXED_TABLES = ['series', 'anidb_anime', 'anidb_anime_titles'];

/**
 * Events that change no series' name or titles: files found, hashed, moved or renamed, a folder going offline or back,
 * an episode's state, an import's progress (the import prepares the index as its last step). After a 100,000-file Shoko
 * import the start marked its folders offline and the index built for the first search was dropped.
 */
const EVENTS_KEEPING_NAMES = new Set<string>([
  'FileDetected',
  'FileHashed',
  'FileMoved',
  'FileRenamed',
  'FileNotMatched',
  'ImportFolderAvailabilityChanged',
  'EpisodeUpdated',
  SHOKO_IMPORT_PROGRESS_EVENT,
]);

/** Whether an event may have changed what the index holds (anything not known to keep the names may). */
export const eventOutdatesSearch = (event: string): boolean => !EVENTS_KEEPING_NAMES.has(event);

/**
 * Whether a job's end may have changed what the index holds: it wrote one of the tables the index reads, or it wrote
 * and which tables cannot be told. A job that failed without writing, or wrote other tables only, left it current.
 */
export const jobOutdatesSearch = (job: { changed?: boolean; tables?: ReadonlySet<string> | null }): boolean =>
  job.changed !== false && (!job.tables || INDEXED_TABLES.some((table) => job.tables!.has(table)));

// About 10 ms of preparing per slice at 400k files, so a request waits at most that long behind the background build.
const SLICE = 200;
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every series of the collection with its titles in their search forms, kept between searches: reading every series
 * and preparing every title again for each query cost more than comparing them (about a second at 20,000 series).
 * `clear` on any change to the collection. Once the collection has been quiet for `quietMs` (after a change, or after
 * `warmSoon` at start), the index is built again in the background, in slices that let requests run in between, so a
 * search rarely pays for it.
 */
export class SeriesSearchIndex {
  private generation = 0;
  private built: { generation: number; entries: Promise<SearchableSeries[]>; done: boolean } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private warming = false;

  constructor(
    private readonly source: SearchIndexSource,
    private readonly quietMs: number,
  ) {}

  clear(): void {
    this.generation++;
    this.built = null;
    if (this.warming) this.warmSoon();
  }

  /** Builds the index once `quietMs` pass without a change; from then on, again after every change. */
  warmSoon(): void {
    this.warming = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A failed warm-up (e.g. the database closing at shutdown) leaves the index to the next search.
      this.entries().catch(() => undefined);
    }, this.quietMs);
    this.timer.unref();
  }

  /** Whether the index of the collection as it is now is built: a search now reads nothing to answer. */
  get prepared(): boolean {
    return this.built?.generation === this.generation && this.built.done;
  }

  /**
   * Builds the index now and resolves once the index of the collection as it is is built: the last step of a bulk
   * change that stays quiet until it is over (a Shoko import), so that its first search finds the titles prepared.
   * A change during the build starts it again (twice at most; a collection that keeps changing is left to the warm-up).
   */
  async prepare(): Promise<void> {
    for (let attempt = 0; attempt < 3 && !this.prepared; attempt++) await this.entries();
  }

  /** The indexed series; an index built while the collection changed serves its callers but is not kept. */
  entries(): Promise<SearchableSeries[]> {
    if (this.built?.generation === this.generation) return this.built.entries;
    const entries = this.build();
    const built = { generation: this.generation, entries, done: false };
    this.built = built;
    entries.then(
      () => {
        built.done = true;
      },
      () => {
        if (this.built === built) this.built = null;
      },
    );
    return entries;
  }

  private async build(): Promise<SearchableSeries[]> {
    const rows = await this.source.series();
    const entries: SearchableSeries[] = [];
    for (let i = 0; i < rows.length; i += SLICE) {
      if (i) await yieldToRequests();
      const slice = rows.slice(i, i + SLICE);
      const titles = new Map<number, PreparedTitle[]>();
      for (const row of slice) if (row.main_title !== null) titles.set(row.anime_id, []);
      for (const title of await this.source.titles([...titles.keys()]))
        titles.get(title.anime_id)?.push({ type: title.type, language: title.language.toLowerCase(), text: searchText(title.value) });
      for (const row of slice)
        entries.push({
          id: row.id,
          animeId: row.anime_id,
          hasAnime: row.main_title !== null,
          name: searchText(row.title_override ?? row.main_title ?? ''),
          titles: titles.get(row.anime_id) ?? [],
        });
    }
    return entries;
  }
}
