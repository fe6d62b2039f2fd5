import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListParam } from './common.js';
import { JsonPatchOperation } from './settings.js';

/** contract collection.md §1: one image of an entity. */
export const CollectionImage = Type.Object({
  ID: Type.Integer(),
  Type: Type.String(),
  Source: Type.String(),
  LanguageCode: Type.Union([Type.String(), Type.Null()]),
  RelativeFilepath: Type.Union([Type.String(), Type.Null()]),
  Preferred: Type.Boolean(),
  Disabled: Type.Boolean(),
  Width: Type.Union([Type.Integer(), Type.Null()]),
  Height: Type.Union([Type.Integer(), Type.Null()]),
});
export type CollectionImage = Static<typeof CollectionImage>;

export const Images = Type.Object({
  Posters: Type.Array(CollectionImage),
  Backdrops: Type.Array(CollectionImage),
  Banners: Type.Array(CollectionImage),
  Logos: Type.Array(CollectionImage),
});
export type Images = Static<typeof Images>;

export const Rating = Type.Object({
  Value: Type.Number(),
  MaxValue: Type.Integer(),
  Source: Type.String(),
  Votes: Type.Integer(),
  Type: Type.Union([Type.String(), Type.Null()]),
});
export type Rating = Static<typeof Rating>;

export const AnimeTypes = ['Unknown', 'Other', 'TV', 'TVSpecial', 'Web', 'Movie', 'OVA', 'MusicVideo'] as const;
export type AnimeType = (typeof AnimeTypes)[number];

const counts = <K extends string>(keys: readonly K[]) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer()])) as unknown as Record<K, TSchema>);

export const EpisodeTypeCountKeys = ['Unknown', 'Episodes', 'Specials', 'Credits', 'Trailers', 'Parodies', 'Others'] as const;
export const FileSourceKeys = ['Unknown', 'Other', 'TV', 'DVD', 'BluRay', 'Web', 'VHS', 'VCD', 'LaserDisc', 'Camera'] as const;
export const EpisodeTypeCounts = counts(EpisodeTypeCountKeys);
export type EpisodeTypeCounts = Record<(typeof EpisodeTypeCountKeys)[number], number>;
export type FileSourceCounts = Record<(typeof FileSourceKeys)[number], number>;

/** §2.3 */
export const SeriesSizes = Type.Object({
  Hidden: Type.Integer(),
  FileSources: counts(FileSourceKeys),
  Local: EpisodeTypeCounts,
  Watched: EpisodeTypeCounts,
  Missing: Type.Object({ Episodes: Type.Integer(), Specials: Type.Integer() }),
  Total: EpisodeTypeCounts,
});
export type SeriesSizes = {
  Hidden: number;
  FileSources: FileSourceCounts;
  Local: EpisodeTypeCounts;
  Watched: EpisodeTypeCounts;
  Missing: { Episodes: number; Specials: number };
  Total: EpisodeTypeCounts;
};
export type GroupSizes = SeriesSizes & { SeriesTypes: Record<AnimeType, number>; SubGroups: number };

/** §2.1 */
export interface Group {
  IDs: {
    ID: number;
    PreferredSeries: number | null;
    MainSeries: number;
    MainAnime: number;
    ParentGroup: number | null;
    TopLevelGroup: number;
  };
  Name: string;
  Size: number;
  SortName: string;
  Description: string;
  HasCustomName: boolean;
  HasCustomDescription: boolean;
  Images: Images;
  Sizes: GroupSizes;
  Created: string;
  Updated: string;
}

export interface AnidbTitle {
  Name: string;
  Language: string;
  Type: string;
  Default: boolean;
  Preferred: boolean;
  Source: string;
}

/** §2.5 (the parts list and grid views read). */
export interface AnidbAnimeSummary {
  ID: number;
  ShokoID: number | null;
  Type: AnimeType;
  Title: string;
  Titles: AnidbTitle[];
  Description: string;
  Restricted: boolean;
  Poster: CollectionImage | null;
  EpisodeCount: number;
  AirDate: string | null;
  EndDate: string | null;
  Rating: Rating;
}

/** §2.2 */
export interface Series {
  IDs: {
    ID: number;
    ParentGroup: number;
    TopLevelGroup: number;
    AniDB: number;
    TvDB: number[];
    IMDB: string[];
    TMDB: { Movie: number[]; Show: number[] };
    MAL: number[];
  };
  Name: string;
  Size: number;
  HasCustomName: boolean;
  Description: string;
  Images: Images;
  UserRating: Rating | null;
  AirsOn: string[];
  YearlySeasons: Array<{ Year: number; AnimeSeason: string }>;
  Links: Array<{ Type: string; Name: string; URL: string }>;
  Sizes: SeriesSizes;
  Created: string;
  Updated: string;
  AniDB?: AnidbAnimeSummary;
  TMDB?: { Movies: unknown[]; Shows: unknown[] };
}

// Request pieces shared by the Group and Filter routes (their schemas are in groups.ts and filters.ts).

/** A list query parameter: repeated keys or one comma-separated value. */
export const CollectionListParam = ListParam;
/** `pageSize`: 0 means every item. */
export const CollectionPageSize = (fallback: number) => Type.Integer({ minimum: 0, maximum: 100, default: fallback });
export const CollectionPage = Type.Integer({ minimum: 1, default: 1 });
/** The body of PATCH Group/{groupID} and PATCH Filter/{filterID}: RFC 6902 operations on the CreateOrUpdate body. */
export const CollectionPatchBody = Type.Union([Type.Array(JsonPatchOperation), Type.Null()]);
export type CollectionPatchBody = JsonPatchOperation[] | null;

/** §2.1 Group.Input.CreateOrUpdateGroupBody */
export const CreateOrUpdateGroupBody = Type.Object({
  ParentGroupID: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  PreferredSeriesID: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  SeriesIDs: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()])),
  GroupIDs: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()])),
  Name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  Description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  HasCustomName: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  HasCustomDescription: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
export type CreateOrUpdateGroupBody = Static<typeof CreateOrUpdateGroupBody>;

/** §2.7 FilterCondition: a recursive expression node. */
export interface FilterCondition {
  Type: string;
  Left?: FilterCondition;
  Right?: FilterCondition;
  Parameter?: string;
  SecondParameter?: string;
}
export interface SortingCriteria {
  Type: string;
  Next?: SortingCriteria;
  IsInverted: boolean;
}
export interface Filter {
  IDs: { ID: number; ParentFilter?: number };
  Name: string;
  Size: number;
  IsLocked: boolean;
  IsDirectory: boolean;
  IsHidden: boolean;
  ApplyAtSeriesLevel: boolean;
  Expression?: FilterCondition;
  Sorting?: SortingCriteria;
}

/** Filter.Input.CreateOrUpdateFilterBody — also the body of every Preview endpoint. */
export const CreateOrUpdateFilterBody = Type.Object({
  Name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  ParentID: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  IsDirectory: Type.Optional(Type.Boolean()),
  IsHidden: Type.Optional(Type.Boolean()),
  ApplyAtSeriesLevel: Type.Optional(Type.Boolean()),
  /** Checked node by node by the server (FilterCondition), so errors can name the offending node. */
  Expression: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  Sorting: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
});
export type CreateOrUpdateFilterBody = {
  Name?: string | null;
  ParentID?: number | null;
  IsDirectory?: boolean;
  IsHidden?: boolean;
  ApplyAtSeriesLevel?: boolean;
  Expression?: FilterCondition | null;
  Sorting?: SortingCriteria | null;
};

export const FilterParameterTypes = [
  'Expression',
  'DateSelector',
  'NumberSelector',
  'StringSelector',
  'StringSetSelector',
  'Date',
  'Number',
  'String',
  'TimeSpan',
  'Bool',
  'StringSet',
] as const;
export type FilterParameterType = (typeof FilterParameterTypes)[number];
export type FilterExpressionGroup = 'Info' | 'Logic' | 'Function' | 'Selector';

export interface FilterExpressionHelp {
  Expression: string;
  Name: string;
  Group: FilterExpressionGroup;
  Description: string;
  Type: FilterParameterType;
  Left?: FilterParameterType;
  Right?: FilterParameterType;
  Parameter?: FilterParameterType;
  SecondParameter?: FilterParameterType;
  PossibleParameters?: string[];
  PossibleSecondParameters?: string[];
  PossibleParameterPairs?: string[][];
}

export interface SortingCriteriaHelp {
  Type: string;
  Name: string;
  Description: string;
}

/** §2.9 */
export interface WebUIGroupExtra {
  ID: number;
  Type: AnimeType;
  Rating: Rating;
  AirDate: string | null;
  EndDate: string | null;
  Tags: Array<{ ID: number; ParentID: number | null; Name: string; IsSpoiler: boolean; Weight?: number; Source: string }>;
}

export const WebUIGroupViewBody = Type.Object({
  GroupIDs: Type.Array(Type.Integer(), { maxItems: 100 }),
  TagFilter: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
  TagLimit: Type.Optional(Type.Integer({ minimum: 0 })),
  OrderByName: Type.Optional(Type.Boolean()),
});
export type WebUIGroupViewBody = Static<typeof WebUIGroupViewBody>;
