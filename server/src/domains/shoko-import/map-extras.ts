import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import type { MapContext } from './map-context.js';
import { mapShokoFilterPreset } from './filter-presets.js';
import { mapShokoRenamerInstance } from './renamer-configs.js';
import { flag, nullableText, shokoDay, shokoTime, text, timeSpanMinutes, tripleBarList } from './shoko-values.js';

/** Saved filters with their expressions (those we cannot evaluate are reported), parents before children. */
export function mapFilters(ctx: MapContext): void {
  const rows = ctx.shoko.all('FilterPreset', [
    'FilterPresetID',
    'ParentFilterPresetID',
    'Name',
    'FilterType',
    'Locked',
    'Hidden',
    'ApplyAtSeriesLevel',
    'Expression',
    'SortingExpression',
  ]);
  const filters = ctx.report.kind('Filters', rows.length);
  const byId = new Map(rows.map((r) => [Number(r.FilterPresetID), r]));
  const done = new Map<number, boolean>();
  const out: Array<RowOf<'filters'>> = [];
  const take = (row: Record<string, unknown>, trail: Set<number>): boolean => {
    const id = Number(row.FilterPresetID);
    if (done.has(id)) return done.get(id)!;
    const parentId = Number(row.ParentFilterPresetID ?? 0) || null;
    let ok = false;
    if (trail.has(id)) filters.skipped('its parents form a loop', text(row.Name));
    else if (parentId !== null && !byId.has(parentId)) filters.skipped('its parent filter does not exist', text(row.Name));
    else if (parentId !== null && !take(byId.get(parentId)!, new Set([...trail, id])))
      filters.skipped('its parent filter was not imported', text(row.Name));
    else {
      const mapped = mapShokoFilterPreset({
        FilterPresetID: id,
        ParentFilterPresetID: parentId,
        Name: text(row.Name),
        FilterType: Number(row.FilterType ?? 0),
        Locked: Number(row.Locked ?? 0),
        Hidden: Number(row.Hidden ?? 0),
        ApplyAtSeriesLevel: Number(row.ApplyAtSeriesLevel ?? 0),
        Expression: (row.Expression as string | null) ?? null,
        SortingExpression: (row.SortingExpression as string | null) ?? null,
      });
      if (!mapped.ok) filters.skipped(mapped.reason, text(row.Name));
      else {
        const f = mapped.filter;
        out.push({
          id,
          parent_id: parentId,
          name: f.name,
          is_locked: flag(f.isLocked),
          is_directory: flag(f.isDirectory),
          is_hidden: flag(f.isHidden),
          apply_at_series_level: flag(f.applyAtSeriesLevel),
          expression: f.expression,
          sorting: f.sorting,
          created_at: ctx.now,
          updated_at: ctx.now,
        });
        filters.took();
        ok = true;
      }
    }
    done.set(id, ok);
    return ok;
  };
  for (const row of rows) take(row, new Set());
  ctx.plan.add('filters', out);
}

/** Renamer configs (Shoko's default one named in its settings stays the default). */
export function mapRenamers(ctx: MapContext): void {
  const rows = ctx.shoko.all('RenamerInstance', ['ID', 'Name', 'Type', 'Settings']);
  const renamers = ctx.report.kind('Renamer configs', rows.length);
  const names = new Set<string>();
  const out: Array<RowOf<'renamer_configs'>> = [];
  for (const row of rows) {
    const mapped = mapShokoRenamerInstance({
      ID: Number(row.ID),
      Name: text(row.Name),
      Type: text(row.Type),
      Settings: (row.Settings as Uint8Array | null) ?? null,
    });
    if (!mapped.ok) renamers.skipped(mapped.reason, text(row.Name));
    else if (names.has(mapped.config.name.toLowerCase())) renamers.skipped('another config has the same name', text(row.Name));
    else {
      names.add(mapped.config.name.toLowerCase());
      out.push({ name: mapped.config.name, renamer_id: mapped.config.renamerId, settings: JSON.stringify(mapped.config.settings) });
      renamers.took();
    }
  }
  ctx.plan.add('renamer_configs', out);
}

const MATCH_RATINGS: Record<number, string> = {
  1: 'UserVerified',
  2: 'DateAndTitleMatches',
  3: 'DateMatches',
  4: 'TitleMatches',
  5: 'FirstAvailable',
  6: 'SarahJessicaParker',
  7: 'TitleKindaMatches',
  8: 'DateAndTitleKindaMatches',
};
/** Before schema 138 a show/movie link had `Source` (CrossRefSource, 2 = User), since then `MatchRating` (1 = UserVerified). */
const madeByUser = (row: Record<string, unknown>) =>
  row.MatchRating !== null && row.MatchRating !== undefined ? Number(row.MatchRating) === 1 : Number(row.Source) === 2;

/** TMDB links of anime and episodes, and the cached TMDB shows, seasons, episodes and movies they point at. */
export function mapTmdb(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const titles = localized(ctx, 'TMDB_Title');
  const overviews = localized(ctx, 'TMDB_Overview');
  const showRows = shoko.all('TMDB_Show', [
    'TmdbShowID',
    'EnglishTitle',
    'EnglishOverview',
    'OriginalTitle',
    'OriginalLanguageCode',
    'IsRestricted',
    'Genres',
    'Keywords',
    'ContentRatings',
    'UserRating',
    'UserVotes',
    'FirstAiredAt',
    'LastAiredAt',
    'CreatedAt',
    'LastUpdatedAt',
    'TvdbShowID',
    'PosterPath',
    'BackdropPath',
    'PreferredAlternateOrderingID',
  ]);
  const shows = report.kind('TMDB shows', showRows.length);
  plan.add(
    'tmdb_shows',
    keepRows(shows, showRows, {
      key: (row) => Number(row.TmdbShowID),
      kept: ids.tmdbShows,
      map: (row, id) => ({
        ...titleColumns(ctx, row, titles.get(`show/${id}`), overviews.get(`show/${id}`)),
        id,
        tvdb_id: Number(row.TvdbShowID ?? 0) || null,
        status: '',
        first_aired_at: shokoDay(row.FirstAiredAt),
        last_aired_at: shokoDay(row.LastAiredAt),
        preferred_ordering_id: nullableText(row.PreferredAlternateOrderingID),
      }),
    }),
  );
  const seasonRows = shoko.all('TMDB_Season', [
    'TmdbSeasonID',
    'TmdbShowID',
    'SeasonNumber',
    'EnglishTitle',
    'EnglishOverview',
    'PosterPath',
    'EpisodeCount',
    'CreatedAt',
    'LastUpdatedAt',
  ]);
  const seasons = report.kind('TMDB seasons', seasonRows.length);
  const showMissing = (row: { TmdbShowID?: unknown }) =>
    ids.tmdbShows.has(Number(row.TmdbShowID)) ? undefined : 'its show is not in the database';
  plan.add(
    'tmdb_seasons',
    keepRows(seasons, seasonRows, {
      key: (row) => Number(row.TmdbSeasonID),
      refuse: showMissing,
      map: (row, id) => ({
        id,
        show_id: Number(row.TmdbShowID),
        season_number: Number(row.SeasonNumber ?? 0),
        title: text(row.EnglishTitle),
        overview: text(row.EnglishOverview),
        poster_path: nullableText(row.PosterPath),
        episode_count: Number(row.EpisodeCount ?? 0),
        created_at: shokoTime(row.CreatedAt) ?? ctx.now,
        updated_at: shokoTime(row.LastUpdatedAt) ?? ctx.now,
      }),
    }),
  );
  const episodeRows = shoko.all('TMDB_Episode', [
    'TmdbEpisodeID',
    'TmdbShowID',
    'TmdbSeasonID',
    'SeasonNumber',
    'EpisodeNumber',
    'EnglishTitle',
    'EnglishOverview',
    'AiredAt',
    'Runtime',
    'ThumbnailPath',
    'UserRating',
    'UserVotes',
    'TvdbEpisodeID',
    'CreatedAt',
    'LastUpdatedAt',
  ]);
  const episodes = report.kind('TMDB episodes', episodeRows.length);
  plan.add(
    'tmdb_episodes',
    keepRows(episodes, episodeRows, {
      key: (row) => Number(row.TmdbEpisodeID),
      refuse: showMissing,
      map: (row, id) => ({
        id,
        show_id: Number(row.TmdbShowID),
        season_id: Number(row.TmdbSeasonID),
        season_number: Number(row.SeasonNumber ?? 0),
        episode_number: Number(row.EpisodeNumber ?? 0),
        title: text(row.EnglishTitle),
        overview: text(row.EnglishOverview),
        aired_at: shokoDay(row.AiredAt),
        runtime_minutes: timeSpanMinutes(row.Runtime),
        still_path: nullableText(row.ThumbnailPath),
        vote_average: Number(row.UserRating ?? 0),
        vote_count: Number(row.UserVotes ?? 0),
        tvdb_episode_id: Number(row.TvdbEpisodeID ?? 0) || null,
        titles: JSON.stringify(titles.get(`episode/${id}`) ?? []),
        overviews: JSON.stringify(overviews.get(`episode/${id}`) ?? []),
        created_at: shokoTime(row.CreatedAt) ?? ctx.now,
        updated_at: shokoTime(row.LastUpdatedAt) ?? ctx.now,
      }),
    }),
  );
  const movieRows = shoko.all('TMDB_Movie', [
    'TmdbMovieID',
    'TmdbCollectionID',
    'EnglishTitle',
    'EnglishOverview',
    'OriginalTitle',
    'OriginalLanguageCode',
    'IsRestricted',
    'IsVideo',
    'Genres',
    'Keywords',
    'ContentRatings',
    'Runtime',
    'UserRating',
    'UserVotes',
    'ReleasedAt',
    'CreatedAt',
    'LastUpdatedAt',
    'ImdbMovieID',
    'PosterPath',
    'BackdropPath',
  ]);
  const movies = report.kind('TMDB movies', movieRows.length);
  plan.add(
    'tmdb_movies',
    keepRows(movies, movieRows, {
      key: (row) => Number(row.TmdbMovieID),
      kept: ids.tmdbMovies,
      map: (row, id) => ({
        ...titleColumns(ctx, row, titles.get(`movie/${id}`), overviews.get(`movie/${id}`)),
        id,
        collection_id: Number(row.TmdbCollectionID ?? 0) || null,
        is_video: flag(row.IsVideo),
        runtime_minutes: timeSpanMinutes(row.Runtime),
        released_at: shokoDay(row.ReleasedAt),
      }),
    }),
  );
  mapTmdbLinks(ctx);
}

function mapTmdbLinks(ctx: MapContext): void {
  const { shoko, plan, report } = ctx;
  const showLinks = shoko.all('CrossRef_AniDB_TMDB_Show', ['AnidbAnimeID', 'TmdbShowID', 'MatchRating', 'Source']);
  const shows = report.kind('TMDB show links', showLinks.length);
  plan.add(
    'xref_anidb_tmdb_show',
    keepRows(shows, showLinks, {
      key: (row) => `${Number(row.AnidbAnimeID)}/${Number(row.TmdbShowID)}`,
      map: (row) => ({
        anime_id: Number(row.AnidbAnimeID),
        show_id: Number(row.TmdbShowID),
        source: madeByUser(row) ? ('User' as const) : ('Automatic' as const),
      }),
    }),
  );
  const movieLinks = shoko.all('CrossRef_AniDB_TMDB_Movie', ['AnidbAnimeID', 'AnidbEpisodeID', 'TmdbMovieID', 'MatchRating', 'Source']);
  const movies = report.kind('TMDB movie links', movieLinks.length);
  plan.add(
    'xref_anidb_tmdb_movie',
    keepRows(movies, movieLinks, {
      key: (row) => `${Number(row.AnidbAnimeID)}/${Number(row.AnidbEpisodeID)}/${Number(row.TmdbMovieID)}`,
      map: (row) => ({
        anime_id: Number(row.AnidbAnimeID),
        anidb_episode_id: Number(row.AnidbEpisodeID ?? 0),
        movie_id: Number(row.TmdbMovieID),
        source: madeByUser(row) ? ('User' as const) : ('Automatic' as const),
      }),
    }),
  );
  const episodeLinks = shoko.all('CrossRef_AniDB_TMDB_Episode', [
    'AnidbAnimeID',
    'AnidbEpisodeID',
    'TmdbShowID',
    'TmdbEpisodeID',
    'Ordering',
    'MatchRating',
  ]);
  const episodes = report.kind('TMDB episode links', episodeLinks.length);
  plan.add(
    'xref_anidb_tmdb_episode',
    keepRows(episodes, episodeLinks, {
      key: (row) => `${Number(row.AnidbEpisodeID)}/${Number(row.TmdbEpisodeID)}`,
      map: (row) => ({
        anime_id: Number(row.AnidbAnimeID),
        anidb_episode_id: Number(row.AnidbEpisodeID),
        show_id: Number(row.TmdbShowID),
        tmdb_episode_id: Number(row.TmdbEpisodeID ?? 0),
        ordering: Number(row.Ordering ?? 0),
        rating: MATCH_RATINGS[Number(row.MatchRating)] ?? 'None',
      }),
    }),
  );
}

/** TMDB_Title / TMDB_Overview rows by `<kind>/<id>` (ParentType, Shoko's ForeignEntityType: 2 movie, 4 show, 16 episode; others are not kept). */
function localized(ctx: MapContext, table: string): Map<string, Array<{ language: string; country: string; value: string }>> {
  const kinds: Record<number, string> = { 2: 'movie', 4: 'show', 16: 'episode' };
  const map = new Map<string, Array<{ language: string; country: string; value: string }>>();
  for (const row of ctx.shoko.all(table, ['ParentID', 'ParentType', 'LanguageCode', 'CountryCode', 'Value'])) {
    const kind = kinds[Number(row.ParentType)];
    if (!kind) continue;
    const key = `${kind}/${Number(row.ParentID)}`;
    const list = map.get(key) ?? [];
    list.push({ language: text(row.LanguageCode), country: text(row.CountryCode), value: text(row.Value) });
    map.set(key, list);
  }
  return map;
}

function titleColumns(ctx: MapContext, row: Record<string, unknown>, titles: unknown[] | undefined, overviews: unknown[] | undefined) {
  const ratings = text(row.ContentRatings)
    .split('|')
    .map((r) => r.split(',').map((p) => p.trim()))
    .filter(([country, rating]) => country && rating)
    .map(([country, rating]) => ({ country, rating }));
  return {
    title: text(row.EnglishTitle),
    original_title: text(row.OriginalTitle),
    original_language: text(row.OriginalLanguageCode),
    overview: text(row.EnglishOverview),
    is_restricted: flag(row.IsRestricted),
    imdb_id: nullableText(row.ImdbMovieID),
    vote_average: Number(row.UserRating ?? 0),
    vote_count: Number(row.UserVotes ?? 0),
    poster_path: nullableText(row.PosterPath),
    backdrop_path: nullableText(row.BackdropPath),
    genres: JSON.stringify(tripleBarList(row.Genres)),
    keywords: JSON.stringify(tripleBarList(row.Keywords)),
    content_ratings: JSON.stringify(ratings),
    studios: '[]',
    production_countries: '{}',
    titles: JSON.stringify(titles ?? []),
    overviews: JSON.stringify(overviews ?? []),
    created_at: shokoTime(row.CreatedAt) ?? ctx.now,
    updated_at: shokoTime(row.LastUpdatedAt) ?? ctx.now,
  };
}

/** Tables of what users made in Shoko that has no counterpart here: the kind, its example column and the reason. */
const UNKEPT: Array<{ table: string; kind: string; example: string; reason: string }> = [
  { table: 'IgnoreAnime', kind: 'Ignored anime (recommendations)', example: 'AnimeID', reason: 'this server has no list of ignored anime' },
  { table: 'Playlist', kind: 'Playlists (desktop client)', example: 'PlaylistName', reason: 'this server has no playlists' },
  { table: 'BookmarkedAnime', kind: 'Bookmarked anime', example: 'AnimeID', reason: 'this server has no bookmarks' },
];

/** Rows Shoko keeps that have no counterpart here, counted so the report accounts for them. */
export function reportUnkept(ctx: MapContext): void {
  for (const { table, kind, example, reason } of UNKEPT) {
    const rows = ctx.shoko.all(table, [example]);
    if (!rows.length) continue;
    const tally = ctx.report.kind(kind, rows.length);
    for (const row of rows) tally.skipped(reason, text(row[example]));
  }
}
