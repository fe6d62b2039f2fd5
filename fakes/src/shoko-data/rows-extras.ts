import type { ShokoCollection, TmdbSpec } from './collection.js';
import { SAMPLE_FILTER_PRESETS, SHOKO_DEFAULT_PRESETS, UNSUPPORTED_SAMPLE_PRESET, type ShokoFilterPresetRow } from './filter-presets.js';
import type { ManifestFilterPreset, ManifestRenamer } from './manifest.js';
import { shokoRenamerInstance, unsupportedRenamerInstance, WEBAOM_RENAMER_TYPE } from './renamer-settings.js';
import { bit, type RowWriter } from './row-writer.js';
import { shokoDate, shokoDateTime } from './values.js';

/** Versions: one row per applied (version, revision), the way Shoko records each schema step it ran. */
export function writeVersionRows(writer: RowWriter, schemaVersion: number): void {
  const program = writer.shape === 'v5.0' ? '5.0.0.0' : '5.3.3.0';
  for (let version = 1; version <= schemaVersion; version++) {
    const revisions = 1 + (version % 3);
    for (let revision = 1; revision <= revisions; revision++) {
      writer.insert('Versions', {
        VersionType: 'Database',
        VersionValue: String(version),
        VersionRevision: String(revision),
        VersionCommand: `schema step ${version}.${revision}`,
        VersionProgram: program,
      });
    }
  }
}

/** Shoko's default presets (and the sample user presets), parents resolved to the ids written before them. */
export function writeFilterPresetRows(writer: RowWriter, collection: ShokoCollection): ManifestFilterPreset[] {
  const written: ManifestFilterPreset[] = [];
  const sources: Array<[ShokoFilterPresetRow[], ManifestFilterPreset['source']]> = [[SHOKO_DEFAULT_PRESETS, 'default']];
  if (collection.sampleFilterPresets) sources.push([SAMPLE_FILTER_PRESETS, 'sample']);
  for (const [presets, source] of sources) {
    for (const preset of presets) {
      const id = written.length + 1;
      const parentId = preset.parentName === null ? null : written.find((one) => one.name === preset.parentName)!.id;
      writer.insert('FilterPreset', {
        FilterPresetID: id,
        ParentFilterPresetID: parentId,
        Name: preset.name,
        FilterType: preset.filterType,
        Locked: bit(preset.locked),
        Hidden: bit(preset.hidden),
        ApplyAtSeriesLevel: bit(preset.applyAtSeriesLevel),
        Expression: preset.expression,
        SortingExpression: preset.sortingExpression,
      });
      written.push({
        id,
        name: preset.name,
        parentId,
        source,
        unsupported: source === 'sample' && preset.name === UNSUPPORTED_SAMPLE_PRESET,
      });
    }
  }
  return written;
}

/** An invented WebAOM-style script: series name, episode number and title, release group. */
const DEFAULT_RENAMER_SCRIPT = ["DO ADD '%ann - %enr - %epn'", "IF G(!unknown) DO ADD ' [%grp]'", "IF R(BD) DO ADD ' (BD)'"].join('\n');

export function writeRenamerRows(writer: RowWriter, collection: ShokoCollection): ManifestRenamer[] {
  const renamers = [shokoRenamerInstance('Default', DEFAULT_RENAMER_SCRIPT)];
  if (collection.unsupportedRenamer) renamers.push(unsupportedRenamerInstance());
  return renamers.map((renamer, index) => {
    writer.insert('RenamerInstance', { ID: index + 1, Name: renamer.name, Type: renamer.type, Settings: renamer.settings });
    return { id: index + 1, name: renamer.name, type: renamer.type, supported: renamer.type === WEBAOM_RENAMER_TYPE };
  });
}

/** The TMDB images Shoko would have downloaded: remote file name, what it shows, its size. */
export function tmdbImages(tmdb: TmdbSpec): Array<{ remoteFileName: string; show?: number; movie?: number; imageType: number }> {
  return [
    ...tmdb.shows.flatMap((show) => [
      { remoteFileName: show.posterPath, show: show.id, imageType: 6 },
      ...(show.logoPath ? [{ remoteFileName: show.logoPath, show: show.id, imageType: 3 }] : []),
    ]),
    ...tmdb.movies.map((movie) => ({ remoteFileName: movie.posterPath, movie: movie.id, imageType: 6 })),
  ];
}

/**
 * TMDB links and the cached TMDB entries. 5.0 marked a show or movie link by its CrossRefSource (0 automatic, 2 user),
 * later versions by a MatchRating (1 user verified, 2 date and title match); TMDB_Image held the entity until 5.1.
 */
export function writeTmdbRows(writer: RowWriter, tmdb: TmdbSpec, now: Date): void {
  const stamp = shokoDateTime(now);
  for (const show of tmdb.shows) {
    writer.insert('CrossRef_AniDB_TMDB_Show', { AnidbAnimeID: show.animeId, TmdbShowID: show.id, MatchRating: 2, Source: 0 });
    const episodes = show.seasons.flatMap((season) => season.episodes);
    const airDates = episodes.map((episode) => episode.airDate).filter((date): date is string => date !== null);
    writer.insert('TMDB_Show', {
      TmdbShowID: show.id,
      EnglishTitle: show.title,
      EnglishOverview: show.overview,
      OriginalTitle: show.originalTitle,
      OriginalLanguageCode: 'ja',
      IsRestricted: 0,
      Genres: 'Animation|||Comedy',
      ContentRatings: 'US,TV-PG|JP,G',
      EpisodeCount: episodes.length,
      SeasonCount: show.seasons.length,
      AlternateOrderingCount: 0,
      UserRating: 7.6,
      UserVotes: 42,
      FirstAiredAt: shokoDate(airDates[0] ?? null),
      LastAiredAt: shokoDate(airDates.at(-1) ?? null),
      CreatedAt: stamp,
      LastUpdatedAt: stamp,
      TvdbShowID: null,
      PosterPath: show.posterPath,
      BackdropPath: null,
      PreferredAlternateOrderingID: null,
      Keywords: 'school|||radio',
      ProductionCountries: 'JP,Japan',
      HiddenEpisodeCount: 0,
    });
    for (const season of show.seasons) {
      writer.insert('TMDB_Season', {
        TmdbShowID: show.id,
        TmdbSeasonID: season.id,
        EnglishTitle: season.title,
        EnglishOverview: '',
        EpisodeCount: season.episodes.length,
        SeasonNumber: season.number,
        CreatedAt: stamp,
        LastUpdatedAt: stamp,
        HiddenEpisodeCount: 0,
        PosterPath: null,
      });
      for (const episode of season.episodes) {
        writer.insert('TMDB_Episode', {
          TmdbShowID: show.id,
          TmdbSeasonID: season.id,
          TmdbEpisodeID: episode.id,
          EnglishTitle: episode.title,
          EnglishOverview: episode.overview,
          SeasonNumber: season.number,
          EpisodeNumber: episode.number,
          Runtime: String(episode.runtimeMinutes),
          UserRating: 7.1,
          UserVotes: 5,
          AiredAt: shokoDate(episode.airDate),
          CreatedAt: stamp,
          LastUpdatedAt: stamp,
          TvdbEpisodeID: null,
          IsHidden: 0,
          ThumbnailPath: null,
        });
      }
    }
    for (const link of show.episodeLinks) {
      writer.insert('CrossRef_AniDB_TMDB_Episode', {
        AnidbAnimeID: show.animeId,
        AnidbEpisodeID: link.anidbEpisodeId,
        TmdbShowID: show.id,
        TmdbEpisodeID: link.tmdbEpisodeId,
        Ordering: link.ordering,
        MatchRating: 2,
      });
    }
  }
  for (const movie of tmdb.movies) {
    writer.insert('CrossRef_AniDB_TMDB_Movie', {
      AnidbAnimeID: movie.animeId,
      TmdbMovieID: movie.id,
      AnidbEpisodeID: movie.anidbEpisodeId,
      MatchRating: 1,
      Source: 2,
    });
    writer.insert('TMDB_Movie', {
      TmdbMovieID: movie.id,
      TmdbCollectionID: null,
      EnglishTitle: movie.title,
      EnglishOverview: movie.overview,
      OriginalTitle: movie.originalTitle,
      OriginalLanguageCode: 'ja',
      IsRestricted: 0,
      IsVideo: 0,
      Genres: 'Animation|||Drama',
      ContentRatings: 'US,PG',
      Runtime: String(movie.runtimeMinutes),
      UserRating: 7.9,
      UserVotes: 120,
      ReleasedAt: shokoDate(movie.releaseDate),
      CreatedAt: stamp,
      LastUpdatedAt: stamp,
      ImdbMovieID: null,
      PosterPath: movie.posterPath,
      BackdropPath: null,
      Keywords: 'bento|||stars',
      ProductionCountries: 'JP,Japan',
    });
  }
  const orderings = new Map<string, number>();
  for (const image of tmdbImages(tmdb)) {
    const entityType = image.show !== undefined ? 4 : 2;
    const entityId = image.show ?? image.movie!;
    const orderingKey = `${entityType}:${entityId}:${image.imageType}`;
    const ordering = orderings.get(orderingKey) ?? 0;
    orderings.set(orderingKey, ordering + 1);
    const [width, height] = image.imageType === 6 ? [8, 8] : [24, 8];
    writer.insert('TMDB_Image', {
      TmdbMovieID: image.movie ?? null,
      TmdbEpisodeID: null,
      TmdbSeasonID: null,
      TmdbShowID: image.show ?? null,
      TmdbCollectionID: null,
      TmdbNetworkID: null,
      TmdbCompanyID: null,
      TmdbPersonID: null,
      ForeignType: entityType,
      ImageType: image.imageType,
      IsEnabled: 1,
      Width: width,
      Height: height,
      Language: image.imageType === 6 ? 'en' : 'none',
      RemoteFileName: image.remoteFileName,
      UserRating: 5.3,
      UserVotes: 2,
    });
    if (writer.has('TMDB_Image_Entity')) {
      writer.insert('TMDB_Image_Entity', {
        TmdbEntityID: entityId,
        TmdbEntityType: entityType,
        ImageType: image.imageType,
        RemoteFileName: image.remoteFileName,
        Ordering: ordering,
        ReleasedAt: null,
      });
    }
  }
}
