import { Type, type Static } from '@sinclair/typebox';
import { ListParam } from './common.js';
import type { AnidbEpisode } from './series.js';
import { AnidbAnimeHit } from './anidb.js';
import { Rating, type CollectionImage } from './collection.js';

/** §1 Role.Person: a character, a person or a company. */
export interface RolePerson {
  ID?: number;
  Type?: string;
  Name: string;
  AlternateName: string;
  Description: string;
  Image: CollectionImage | null;
}

/** §1 Role (Series/{id}/Cast): a character with its voice actor, or a staff member with the role's AniDB text. */
export interface Role {
  Character?: RolePerson;
  Staff: RolePerson;
  RoleName: string;
  RoleDetails: string;
}

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
export interface WebUISeriesExtra {
  /** .NET TimeSpan text of a typical episode, or null when unknown. */
  RuntimeLength: string | null;
  /** 'Season YYYY' (e.g. 'Spring 2021') for TV and web series. */
  FirstAirSeason: string | null;
  Studios: RolePerson[];
  Producers: RolePerson[];
  SourceMaterial: string;
}

/** Series/{id}/Images: every image of the series by type. */
export interface SeriesImages {
  Posters: CollectionImage[];
  Backdrops: CollectionImage[];
  Banners: CollectionImage[];
  Logos: CollectionImage[];
}

/** One group of WebUI/Series/{id}/FileSummary: the grouping keys asked for plus the episode ranges per type. */
export interface FileSummaryGroup {
  GroupName?: string;
  GroupNameShort?: string;
  FileVersion?: number;
  FileSource?: string;
  FileLocation?: string;
  VideoCodecs?: string;
  VideoBitDepth?: number;
  VideoResolution?: string;
  AudioCodecs?: string;
  AudioLanguages?: string[];
  SubtitleCodecs?: string;
  SubtitleLanguages?: string[];
  RangeByType: Record<string, { Count: number; Range: string; FileSize: number }>;
}

/** WebUI/Series/{id}/FileSummary. */
export interface SeriesFileSummary {
  Overview: {
    TotalFileSize: number;
    ReleaseGroups: string[];
    SourcesByType: Array<{ Type: string; Sources: Array<{ Type: string; Count: number }> }>;
  };
  Groups: FileSummaryGroup[];
  MissingEpisodes: AnidbEpisode[];
}

// ---------------------------------------------------------------- request schemas of the series page's routes

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
