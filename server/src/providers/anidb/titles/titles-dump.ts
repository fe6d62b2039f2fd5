import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import type { Logger } from 'pino';
import { normaliseTitle, titleSimilarity } from '../../tmdb/title-similarity.js';

export const DEFAULT_TITLES_URL = 'https://anidb.net/api/anime-titles.xml.gz';
const DAY_MS = 24 * 60 * 60_000;

export interface DumpTitle {
  /** `main`, `official`, `syn`, `short`, `card` or `kana`, as the dump writes them. */
  type: string;
  language: string;
  value: string;
}

export interface DumpAnime {
  id: number;
  titles: DumpTitle[];
}

export interface TitleMatch {
  anime: DumpAnime;
  /** 0–1; 1 for an exact title. */
  score: number;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'anime' || name === 'title',
});

/** The dump's `<animetitles>` document as anime with their titles; malformed entries are skipped. */
export function parseTitlesDump(xml: string): DumpAnime[] {
  const document = parser.parse(xml) as { animetitles?: { anime?: Array<Record<string, unknown>> } };
  const result: DumpAnime[] = [];
  for (const anime of document.animetitles?.anime ?? []) {
    const id = Number(anime['@aid']);
    if (!Number.isInteger(id) || id <= 0) continue;
    const titles = ((anime.title as Array<Record<string, unknown>> | undefined) ?? [])
      .map((title) => ({
        type: String(title['@type'] ?? ''),
        language: String(title['@xml:lang'] ?? ''),
        value: String(title['#text'] ?? '').trim(),
      }))
      .filter((title) => title.value);
    if (titles.length) result.push({ id, titles });
  }
  return result;
}

/**
 * How well an already normalised title matches a normalised needle: exact 1, prefix 0.9, a word starting with it 0.8,
 * anywhere 0.7, and with `fuzzy` a similar title below that; 0 = no match.
 */
export function titleScore(normalised: string, needle: string, fuzzy: boolean): number {
  if (!needle || !normalised) return 0;
  if (normalised === needle) return 1;
  if (normalised.startsWith(needle)) return 0.9;
  if (normalised.split(' ').some((word) => word.startsWith(needle))) return 0.8;
  if (normalised.includes(needle)) return 0.7;
  if (fuzzy) {
    const similarity = titleSimilarity(normalised, needle);
    if (similarity >= 0.6) return similarity * 0.6;
  }
  return 0;
}

interface IndexedTitle {
  anime: DumpAnime;
  normalised: string;
}

/**
 * AniDB's daily titles dump: downloaded at most once a day into `<cacheDir>/anime-titles.xml` (a stale copy is kept
 * when AniDB cannot be reached) and searched in memory by title or id.
 */
export class AniDBTitlesDump {
  private anime = new Map<number, DumpAnime>();
  private index: IndexedTitle[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: { url: string; cacheDir: string; logger: Logger; now?: () => number; fetch?: typeof fetch }) {
    this.now = options.now ?? Date.now;
  }

  get cacheFile(): string {
    return path.join(this.options.cacheDir, 'anime-titles.xml');
  }

  /** Loads (and if older than a day, refreshes) the dump; concurrent callers share one load. */
  ready(): Promise<void> {
    if (this.loadedAt && this.now() - this.loadedAt < DAY_MS) return Promise.resolve();
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  byId(id: number): DumpAnime | null {
    return this.anime.get(id) ?? null;
  }

  all(): DumpAnime[] {
    return [...this.anime.values()].sort((a, b) => a.id - b.id);
  }

  /**
   * Anime whose titles contain the query (case, accents and punctuation ignored), best first: exact titles, then
   * titles starting with it, then words starting with it, then anywhere; with `fuzzy`, also similar titles.
   */
  search(query: string, options: { fuzzy: boolean }): TitleMatch[] {
    const needle = normaliseTitle(query);
    if (!needle) return [];
    const best = new Map<number, number>();
    for (const entry of this.index) {
      const score = titleScore(entry.normalised, needle, options.fuzzy);
      if (score > (best.get(entry.anime.id) ?? 0)) best.set(entry.anime.id, score);
    }
    return [...best.entries()]
      .map(([id, score]) => ({ anime: this.anime.get(id)!, score }))
      .sort((a, b) => b.score - a.score || a.anime.id - b.anime.id);
  }

  /** When the last download was tried, successful or not (a small file next to the dump, so restarts know too). */
  get attemptFile(): string {
    return path.join(this.options.cacheDir, 'anime-titles.last-attempt');
  }

  private async lastAttempt(): Promise<number> {
    const text = await fs.readFile(this.attemptFile, 'utf8').catch(() => '');
    const at = Number(text.trim());
    return Number.isFinite(at) ? at : 0;
  }

  private async load(): Promise<void> {
    await fs.mkdir(this.options.cacheDir, { recursive: true });
    const stat = await fs.stat(this.cacheFile).catch(() => null);
    if (!stat || this.now() - stat.mtimeMs >= DAY_MS) {
      // AniDB allows one download a day: a failed one counts too, so nothing is retried before the day is over.
      const lastAttempt = await this.lastAttempt();
      if (this.now() - lastAttempt < DAY_MS) {
        const next = new Date(lastAttempt + DAY_MS).toISOString();
        if (!stat) {
          this.options.logger.debug(`No AniDB titles dump yet; the next download attempt is due after ${next}`);
          this.loadedAt = 0;
          return;
        }
      } else {
        await fs.writeFile(this.attemptFile, String(this.now()));
        try {
          await this.download();
        } catch (error) {
          const next = new Date(this.now() + DAY_MS).toISOString();
          this.options.logger.warn(
            `Could not download the AniDB titles dump: ${error instanceof Error ? error.message : String(error)}${stat ? '; using the copy from ' + stat.mtime.toISOString() : ''}; next attempt after ${next}`,
          );
          if (!stat) {
            this.loadedAt = 0;
            return;
          }
        }
      }
    }
    const anime = parseTitlesDump(await fs.readFile(this.cacheFile, 'utf8'));
    this.anime = new Map(anime.map((a) => [a.id, a]));
    this.index = anime.flatMap((a) =>
      a.titles.map((title) => {
        const normalised = normaliseTitle(title.value);
        return { anime: a, normalised };
      }),
    );
    this.loadedAt = this.now();
    this.options.logger.info(`AniDB titles dump loaded: ${anime.length} anime`);
  }

  private async download(): Promise<void> {
    const response = await (this.options.fetch ?? fetch)(this.options.url, {
      headers: { 'Accept-Encoding': 'gzip, deflate', 'User-Agent': 'shoko-ts' },
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    // The file is gzip itself; a transport that already decoded it hands over plain XML.
    const xml = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
    if (!xml.includes('<animetitles')) throw new Error('the answer is not a titles dump');
    const temporary = `${this.cacheFile}.${process.pid}.tmp`;
    await fs.writeFile(temporary, xml);
    await fs.rename(temporary, this.cacheFile);
  }
}
