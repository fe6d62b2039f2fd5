import { Type, type Static } from '@sinclair/typebox';
import { ListParam, Nullable } from './common.js';
import { AnidbEpisode, Episode, Tag } from './series.js';
import { AnidbAnimeHit } from './anidb.js';
import { CollectionImage, Group, Images, Rating } from './collection.js';
import { FileLocation } from './files.js';

/** §1 Role.Person: a character, a person or a company. */
export const RolePerson = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Type: Type.Optional(Type.String()),
  Name: Type.String(),
  AlternateName: Type.String(),
  Description: Type.String(),
  Image: Nullable(CollectionImage),
});
export type RolePerson = Static<typeof RolePerson>;

/** §1 Role (Series/{id}/Cast): a character with its voice actor, or a staff member with the role's AniDB text. */
export const Role = Type.Object({
  Character: Type.Optional(RolePerson),
  Staff: RolePerson,
  RoleName: Type.String(),
  RoleDetails: Type.String(),
});
export type Role = Static<typeof Role>;

/**
 * §2.5 AniDB anime as listed by Series/{id}/AniDB/Related and /Similar: the AniDB anime model of anidb.ts without
 * Titles, plus UserApproval (Similar) and Relation (Related: Sequel, Prequel, SideStory, …).
 */
export const RelatedAnime = Type.Composite([
  Type.Omit(AnidbAnimeHit, ['Titles']),
  Type.Object({ UserApproval: Type.Optional(Rating), Relation: Type.Optional(Type.String()) }),
]);
export type RelatedAnime = Static<typeof RelatedAnime>;

/** WebUI/Series/{id}: details the series model lacks. */
export const WebUISeriesExtra = Type.Object({
  /** .NET TimeSpan text of a typical episode, or null when unknown. */
  RuntimeLength: Nullable(Type.String()),
  /** 'Season YYYY' (e.g. 'Spring 2021') for TV and web series. */
  FirstAirSeason: Nullable(Type.String()),
  Studios: Type.Array(RolePerson),
  Producers: Type.Array(RolePerson),
  SourceMaterial: Type.String(),
});
export type WebUISeriesExtra = Static<typeof WebUISeriesExtra>;

/**
 * WebUI/Series/{id}/Overview (our addition): what the series page's header and Overview tab show beside the series, in
 * one round trip instead of seven. Each key is the answer of its own route with the query the console gives it:
 * WebUI/Series/{id}, Series/{id}/Tags?onlyVerified=false, Group/{the series' group} (null where that route refuses: a
 * group holding a series the viewer may not see), Series/{id}/NextUpEpisode?includeDataFrom=AniDB (null where that
 * route answers 204), Series/{id}/AniDB/Related, Series/{id}/AniDB/Similar and Series/{id}/Cast.
 */
export const WebUISeriesOverview = Type.Object({
  Extra: WebUISeriesExtra,
  Tags: Type.Array(Tag),
  Group: Nullable(Group),
  NextUpEpisode: Nullable(Episode),
  Related: Type.Array(RelatedAnime),
  Similar: Type.Array(RelatedAnime),
  Cast: Type.Array(Role),
});
export type WebUISeriesOverview = Static<typeof WebUISeriesOverview>;

/** Series/{id}/Images: every image of the series by type. */
export const SeriesImages = Images;
export type SeriesImages = Images;

/** One group of WebUI/Series/{id}/FileSummary: the grouping keys asked for plus the episode ranges per type. */
export const FileSummaryGroup = Type.Object({
  GroupName: Type.Optional(Type.String()),
  GroupNameShort: Type.Optional(Type.String()),
  FileVersion: Type.Optional(Type.Integer()),
  FileSource: Type.Optional(Type.String()),
  FileLocation: Type.Optional(Type.String()),
  VideoCodecs: Type.Optional(Type.String()),
  VideoBitDepth: Type.Optional(Type.Integer()),
  VideoResolution: Type.Optional(Type.String()),
  AudioCodecs: Type.Optional(Type.String()),
  AudioLanguages: Type.Optional(Type.Array(Type.String())),
  SubtitleCodecs: Type.Optional(Type.String()),
  SubtitleLanguages: Type.Optional(Type.Array(Type.String())),
  AudioStreamCount: Type.Optional(Type.Integer()),
  SubtitleStreamCount: Type.Optional(Type.Integer()),
  VideoWidth: Type.Optional(Type.Integer()),
  VideoHeight: Type.Optional(Type.Integer()),
  VideoHasChapters: Type.Optional(Type.Boolean()),
  FileIsDeprecated: Type.Optional(Type.Boolean()),
  ImportFolder: Type.Optional(Type.Integer()),
  ED2K: Type.Optional(Type.String()),
  /** With `includeEpisodeDetails`: each file of the group by episode (EpisodeID is the AniDB episode id). */
  Episodes: Type.Optional(
    Type.Array(
      Type.Object({
        EpisodeID: Type.Integer(),
        FileID: Type.Integer(),
        Type: Type.String(),
        Number: Type.Integer(),
        Size: Type.Integer(),
        ED2K: Type.String(),
      }),
    ),
  ),
  /** With `includeLocationDetails`: the group's file locations (without AbsolutePath). */
  Locations: Type.Optional(Type.Array(Type.Omit(FileLocation, ['AbsolutePath']))),
  RangeByType: Type.Record(Type.String(), Type.Object({ Count: Type.Integer(), Range: Type.String(), FileSize: Type.Integer() })),
});
export type FileSummaryGroup = Static<typeof FileSummaryGroup>;

/** WebUI/Series/{id}/FileSummary. */
export const SeriesFileSummary = Type.Object({
  Overview: Type.Object({
    TotalFileSize: Type.Integer(),
    ReleaseGroups: Type.Array(Type.String()),
    SourcesByType: Type.Array(
      Type.Object({ Type: Type.String(), Sources: Type.Array(Type.Object({ Type: Type.String(), Count: Type.Integer() })) }),
    ),
  }),
  Groups: Type.Array(FileSummaryGroup),
  MissingEpisodes: Type.Array(AnidbEpisode),
});
export type SeriesFileSummary = Static<typeof SeriesFileSummary>;

/** Series/{id}/Images. */
export const SeriesImagesQuery = Type.Object({ includeDisabled: Type.Boolean({ default: false }) });
export type SeriesImagesQuery = Static<typeof SeriesImagesQuery>;

/** Series/{id}/Images/{imageType}: Poster, Banner, Backdrop or Logo (checked by the server). */
export const SeriesImageParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }), imageType: Type.String() });
export type SeriesImageParams = Static<typeof SeriesImageParams>;

/** Series/{id}/Images/{imageType} (PUT): the image to prefer. */
export const SeriesPreferredImageBody = Type.Object({ ID: Type.Integer({ minimum: 0 }), Source: Type.String() });
export type SeriesPreferredImageBody = Static<typeof SeriesPreferredImageBody>;

/** WebUI/Series/{id}/FileSummary. */
export const SeriesFileSummaryQuery = Type.Object({
  type: ListParam,
  groupBy: ListParam,
  includeEpisodeDetails: Type.Boolean({ default: false }),
  includeLocationDetails: Type.Boolean({ default: false }),
  includeMissingUnknownEpisodes: Type.Boolean({ default: false }),
  includeMissingFutureEpisodes: Type.Boolean({ default: false }),
});
export type SeriesFileSummaryQuery = Static<typeof SeriesFileSummaryQuery>;
