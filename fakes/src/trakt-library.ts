/**
 * The account side of the Trakt fake: a catalogue of shows and movies found by their TMDB, TVDB or Trakt ids
 * (`/search/{id_type}/{id}`), one user's watch history (`/sync/history`, `/sync/history/remove`, `/sync/watched/*`) and
 * scrobbles (`/scrobble/start|pause|stop`). Bodies follow Trakt's API v2 documentation; all data is invented.
 */
export interface FakeTraktIds {
  trakt: number;
  slug: string;
  tmdb: number | null;
  tvdb: number | null;
  imdb: string | null;
}

export interface FakeTraktEpisode {
  season: number;
  number: number;
  ids: FakeTraktIds;
}

export interface FakeTraktShow {
  title: string;
  year: number;
  ids: FakeTraktIds;
  episodes: FakeTraktEpisode[];
}

export interface FakeTraktMovie {
  title: string;
  year: number;
  ids: FakeTraktIds;
}

export interface FakeTraktCatalogue {
  shows: FakeTraktShow[];
  movies: FakeTraktMovie[];
}

/** One play in the history: an episode (by its show's Trakt id, season and number) or a movie. */
export interface FakeTraktPlay {
  kind: 'episode' | 'movie';
  /** Trakt id of the episode or movie. */
  trakt: number;
  watchedAt: string;
}

export interface FakeTraktScrobble {
  action: 'start' | 'pause' | 'stop';
  kind: 'episode' | 'movie';
  /** Trakt id of the episode or movie. */
  trakt: number;
  progress: number;
}

const ids = (trakt: number, slug: string, tmdb: number | null, tvdb: number | null, imdb: string | null = null): FakeTraktIds => ({
  trakt,
  slug,
  tmdb,
  tvdb,
  imdb,
});

/** The invented catalogue of external-services.md §8: one show (TMDB 123456 / TVDB 400001) and one movie (TMDB 654321). */
export function defaultTraktCatalogue(): FakeTraktCatalogue {
  const episode = (season: number, number: number, trakt: number, tmdb: number, tvdb: number): FakeTraktEpisode => ({
    season,
    number,
    ids: ids(trakt, `${season}x${number}`, tmdb, tvdb),
  });
  return {
    shows: [
      {
        title: 'The Library Above the Clouds',
        year: 2021,
        ids: ids(90001, 'the-library-above-the-clouds', 123456, 400001, 'tt0000001'),
        episodes: [
          episode(0, 1, 91000, 3000100, 500100),
          episode(1, 1, 91001, 3000001, 500001),
          episode(1, 2, 91002, 3000002, 500002),
          episode(1, 3, 91003, 3000003, 500003),
        ],
      },
    ],
    movies: [
      { title: 'The Library Above the Clouds: Stardust', year: 2023, ids: ids(80001, 'library-above-the-clouds-stardust', 654321, null) },
    ],
  };
}

type IdsInput = Partial<Record<'trakt' | 'tmdb' | 'tvdb' | 'imdb' | 'slug', unknown>>;

function sameIds(known: FakeTraktIds, wanted: IdsInput | undefined): boolean {
  if (!wanted) return false;
  return (['trakt', 'tmdb', 'tvdb', 'imdb', 'slug'] as const).some(
    (key) => wanted[key] !== undefined && wanted[key] !== null && known[key] !== null && String(wanted[key]) === String(known[key]),
  );
}

interface HistoryBody {
  movies?: Array<{ ids?: IdsInput; watched_at?: string }>;
  episodes?: Array<{ ids?: IdsInput; watched_at?: string }>;
  shows?: Array<{
    ids?: IdsInput;
    watched_at?: string;
    seasons?: Array<{ number?: number; watched_at?: string; episodes?: Array<{ number?: number; watched_at?: string }> }>;
  }>;
}

export class FakeTraktLibrary {
  readonly history: FakeTraktPlay[] = [];
  readonly scrobbles: FakeTraktScrobble[] = [];

  constructor(readonly catalogue: FakeTraktCatalogue) {}

  private showOfEpisode(trakt: number) {
    return this.catalogue.shows.find((s) => s.episodes.some((e) => e.ids.trakt === trakt));
  }

  private findEpisode(wanted: IdsInput | undefined) {
    for (const show of this.catalogue.shows) {
      const episode = show.episodes.find((e) => sameIds(e.ids, wanted));
      if (episode) return episode;
    }
    return undefined;
  }

  /** `GET /search/{id_type}/{id}?type=…`: the items with that id, each wrapped as Trakt wraps search results. */
  search(idType: string, id: string, type: string | null) {
    const wanted = { [idType]: id } as IdsInput;
    const types = type ? type.split(',') : ['show', 'movie', 'episode'];
    const results: unknown[] = [];
    if (types.includes('show'))
      for (const show of this.catalogue.shows.filter((s) => sameIds(s.ids, wanted)))
        results.push({ type: 'show', score: null, show: this.showBody(show) });
    if (types.includes('movie'))
      for (const movie of this.catalogue.movies.filter((m) => sameIds(m.ids, wanted)))
        results.push({ type: 'movie', score: null, movie: this.movieBody(movie) });
    if (types.includes('episode')) {
      const episode = this.findEpisode(wanted);
      if (episode)
        results.push({
          type: 'episode',
          score: null,
          episode: this.episodeBody(episode),
          show: this.showBody(this.showOfEpisode(episode.ids.trakt)!),
        });
    }
    return results;
  }

  private showBody = (show: FakeTraktShow) => ({ title: show.title, year: show.year, ids: { ...show.ids, tvrage: null } });
  private movieBody = (movie: FakeTraktMovie) => ({ title: movie.title, year: movie.year, ids: movie.ids });
  private episodeBody = (episode: FakeTraktEpisode) => ({ season: episode.season, number: episode.number, title: null, ids: episode.ids });

  /** The plays a history body names, and what it named that the catalogue does not have. */
  private resolve(body: HistoryBody) {
    const plays: FakeTraktPlay[] = [];
    const notFound = { movies: [] as unknown[], shows: [] as unknown[], seasons: [] as unknown[], episodes: [] as unknown[], people: [] };
    const at = (value: string | undefined) => (value ? new Date(value).toISOString() : new Date().toISOString());
    for (const item of body.movies ?? []) {
      const movie = this.catalogue.movies.find((m) => sameIds(m.ids, item.ids));
      if (movie) plays.push({ kind: 'movie', trakt: movie.ids.trakt, watchedAt: at(item.watched_at) });
      else notFound.movies.push({ ids: item.ids });
    }
    for (const item of body.episodes ?? []) {
      const episode = this.findEpisode(item.ids);
      if (episode) plays.push({ kind: 'episode', trakt: episode.ids.trakt, watchedAt: at(item.watched_at) });
      else notFound.episodes.push({ ids: item.ids });
    }
    for (const item of body.shows ?? []) {
      const show = this.catalogue.shows.find((s) => sameIds(s.ids, item.ids));
      if (!show) {
        notFound.shows.push({ ids: item.ids });
        continue;
      }
      const seasons = item.seasons ?? [...new Set(show.episodes.map((e) => e.season))].map((number) => ({ number }));
      for (const season of seasons) {
        const inSeason = show.episodes.filter((e) => e.season === season.number);
        const wanted = 'episodes' in season && season.episodes ? season.episodes : inSeason.map((e) => ({ number: e.number }));
        for (const entry of wanted) {
          const episode = inSeason.find((e) => e.number === entry.number);
          const watchedAt =
            ('watched_at' in entry ? entry.watched_at : undefined) ?? ('watched_at' in season ? season.watched_at : undefined);
          if (episode) plays.push({ kind: 'episode', trakt: episode.ids.trakt, watchedAt: at(watchedAt ?? item.watched_at) });
          else notFound.episodes.push({ season: season.number, number: entry.number });
        }
      }
    }
    return { plays, notFound };
  }

  /** `POST /sync/history`: 201 with the counts added. */
  add(body: HistoryBody) {
    const { plays, notFound } = this.resolve(body);
    this.history.push(...plays);
    return {
      added: { movies: plays.filter((p) => p.kind === 'movie').length, episodes: plays.filter((p) => p.kind === 'episode').length },
      not_found: notFound,
    };
  }

  /** `POST /sync/history/remove`: every play of the named items goes. */
  remove(body: HistoryBody) {
    const { plays, notFound } = this.resolve(body);
    const deleted = { movies: 0, episodes: 0 };
    for (const play of plays) {
      for (let i = this.history.length - 1; i >= 0; i--) {
        if (this.history[i].kind !== play.kind || this.history[i].trakt !== play.trakt) continue;
        this.history.splice(i, 1);
        deleted[play.kind === 'movie' ? 'movies' : 'episodes']++;
      }
    }
    return { deleted, not_found: notFound };
  }

  /** `GET /sync/watched/shows`: the history grouped by show, season and episode. */
  watchedShows() {
    return this.catalogue.shows.flatMap((show) => {
      const seasons = new Map<number, Array<{ number: number; plays: number; last_watched_at: string }>>();
      let plays = 0;
      let last = '';
      for (const episode of show.episodes) {
        const mine = this.history.filter((p) => p.kind === 'episode' && p.trakt === episode.ids.trakt);
        if (!mine.length) continue;
        const latest = mine
          .map((p) => p.watchedAt)
          .sort()
          .at(-1)!;
        plays += mine.length;
        if (latest > last) last = latest;
        const list = seasons.get(episode.season) ?? [];
        list.push({ number: episode.number, plays: mine.length, last_watched_at: latest });
        seasons.set(episode.season, list);
      }
      if (!plays) return [];
      return [
        {
          plays,
          last_watched_at: last,
          last_updated_at: last,
          reset_at: null,
          show: this.showBody(show),
          seasons: [...seasons].map(([number, episodes]) => ({ number, episodes })),
        },
      ];
    });
  }

  /** `GET /sync/watched/movies`. */
  watchedMovies() {
    return this.catalogue.movies.flatMap((movie) => {
      const mine = this.history.filter((p) => p.kind === 'movie' && p.trakt === movie.ids.trakt);
      if (!mine.length) return [];
      const last = mine
        .map((p) => p.watchedAt)
        .sort()
        .at(-1)!;
      return [{ plays: mine.length, last_watched_at: last, last_updated_at: last, movie: this.movieBody(movie) }];
    });
  }

  /**
   * `POST /scrobble/{action}`: 201 with what Trakt did, 404 for an unknown item. A stop at 80 % or more is a
   * scrobble (a play in the history); below that it is a pause, as on Trakt.
   */
  scrobble(action: 'start' | 'pause' | 'stop', body: { episode?: { ids?: IdsInput }; movie?: { ids?: IdsInput }; progress?: unknown }) {
    const progress = Number(body.progress);
    const episode = body.episode ? this.findEpisode(body.episode.ids) : undefined;
    const movie = body.movie ? this.catalogue.movies.find((m) => sameIds(m.ids, body.movie?.ids)) : undefined;
    if ((!episode && !movie) || !Number.isFinite(progress)) return null;
    const kind = episode ? 'episode' : 'movie';
    const trakt = (episode ?? movie)!.ids.trakt;
    this.scrobbles.push({ action, kind, trakt, progress });
    const scrobbled = action === 'stop' && progress >= 80;
    if (scrobbled) this.history.push({ kind, trakt, watchedAt: new Date().toISOString() });
    return {
      id: this.scrobbles.length,
      action: scrobbled ? 'scrobble' : action === 'stop' ? 'pause' : action,
      progress,
      sharing: { twitter: false, mastodon: false, tumblr: false },
      ...(episode ? { episode: this.episodeBody(episode), show: this.showBody(this.showOfEpisode(episode.ids.trakt)!) } : {}),
      ...(movie ? { movie: this.movieBody(movie) } : {}),
    };
  }
}
