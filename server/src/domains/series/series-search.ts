// The series' title search index over the shared title matching (shared/title-match.ts).
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
  private built: { generation: number; entries: Promise<SearchableSeries[]> } | null = null;
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

  /** The indexed series; an index built while the collection changed serves its callers but is not kept. */
  entries(): Promise<SearchableSeries[]> {
    if (this.built?.generation === this.generation) return this.built.entries;
    const entries = this.build();
    const built = { generation: this.generation, entries };
    this.built = built;
    entries.catch(() => {
      if (this.built === built) this.built = null;
    });
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
