import { Type, type Static, type TInteger } from '@sinclair/typebox';
import { ListParam, Nullable, StringEnum, Title } from './common.js';
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
export const AnimeTypeSchema = StringEnum(AnimeTypes);

const counts = <K extends string>(keys: readonly K[]) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer()])) as unknown as Record<K, TInteger>);

export const EpisodeTypeCountKeys = ['Unknown', 'Episodes', 'Specials', 'Credits', 'Trailers', 'Parodies', 'Others'] as const;
export const FileSourceKeys = ['Unknown', 'Other', 'TV', 'DVD', 'BluRay', 'Web', 'VHS', 'VCD', 'LaserDisc', 'Camera'] as const;
export const EpisodeTypeCounts = counts(EpisodeTypeCountKeys);
export type EpisodeTypeCounts = Static<typeof EpisodeTypeCounts>;
export const FileSourceCounts = counts(FileSourceKeys);
export type FileSourceCounts = Static<typeof FileSourceCounts>;

/** §2.3 */
export const SeriesSizes = Type.Object({
  Hidden: Type.Integer(),
  FileSources: FileSourceCounts,
  Local: EpisodeTypeCounts,
  Watched: EpisodeTypeCounts,
  Missing: Type.Object({ Episodes: Type.Integer(), Specials: Type.Integer() }),
  Total: EpisodeTypeCounts,
});
export type SeriesSizes = Static<typeof SeriesSizes>;
export const GroupSizes = Type.Composite([SeriesSizes, Type.Object({ SeriesTypes: counts(AnimeTypes), SubGroups: Type.Integer() })]);
export type GroupSizes = Static<typeof GroupSizes>;

/** §2.1 */
export const Group = Type.Object({
  IDs: Type.Object({
    ID: Type.Integer(),
    PreferredSeries: Nullable(Type.Integer()),
    MainSeries: Type.Integer(),
    MainAnime: Type.Integer(),
    ParentGroup: Nullable(Type.Integer()),
    TopLevelGroup: Type.Integer(),
  }),
  Name: Type.String(),
  Size: Type.Integer(),
  SortName: Type.String(),
  Description: Type.String(),
  HasCustomName: Type.Boolean(),
  HasCustomDescription: Type.Boolean(),
  Images: Images,
  Sizes: GroupSizes,
  Created: Type.String(),
  Updated: Type.String(),
});
export type Group = Static<typeof Group>;

export const AnidbTitle = Title;
export type AnidbTitle = Static<typeof AnidbTitle>;

/** §2.5 (the parts list and grid views read). */
export const AnidbAnimeSummary = Type.Object({
  ID: Type.Integer(),
  ShokoID: Nullable(Type.Integer()),
  Type: AnimeTypeSchema,
  Title: Type.String(),
  Titles: Type.Array(AnidbTitle),
  Description: Type.String(),
  Restricted: Type.Boolean(),
  Poster: Nullable(CollectionImage),
  EpisodeCount: Type.Integer(),
  AirDate: Nullable(Type.String()),
  EndDate: Nullable(Type.String()),
  Rating: Rating,
});
export type AnidbAnimeSummary = Static<typeof AnidbAnimeSummary>;

/** §2.2 */
export const Series = Type.Object({
  IDs: Type.Object({
    ID: Type.Integer(),
    ParentGroup: Type.Integer(),
    TopLevelGroup: Type.Integer(),
    AniDB: Type.Integer(),
    TvDB: Type.Array(Type.Integer()),
    IMDB: Type.Array(Type.String()),
    TMDB: Type.Object({ Movie: Type.Array(Type.Integer()), Show: Type.Array(Type.Integer()) }),
    MAL: Type.Array(Type.Integer()),
  }),
  Name: Type.String(),
  Size: Type.Integer(),
  HasCustomName: Type.Boolean(),
  Description: Type.String(),
  Images: Images,
  UserRating: Nullable(Rating),
  AirsOn: Type.Array(Type.String()),
  YearlySeasons: Type.Array(Type.Object({ Year: Type.Integer(), AnimeSeason: Type.String() })),
  Links: Type.Array(Type.Object({ Type: Type.String(), Name: Type.String(), URL: Type.String() })),
  Sizes: SeriesSizes,
  Created: Type.String(),
  Updated: Type.String(),
  AniDB: Type.Optional(AnidbAnimeSummary),
  TMDB: Type.Optional(Type.Object({ Movies: Type.Array(Type.Unknown()), Shows: Type.Array(Type.Unknown()) })),
});
export type Series = Static<typeof Series>;

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
export const FilterCondition = Type.Recursive(
  (Self) =>
    Type.Object({
      Type: Type.String(),
      Left: Type.Optional(Self),
      Right: Type.Optional(Self),
      Parameter: Type.Optional(Type.String()),
      SecondParameter: Type.Optional(Type.String()),
    }),
  { $id: 'FilterCondition' },
);
export type FilterCondition = Static<typeof FilterCondition>;
export const SortingCriteria = Type.Recursive(
  (Self) => Type.Object({ Type: Type.String(), Next: Type.Optional(Self), IsInverted: Type.Boolean() }),
  { $id: 'SortingCriteria' },
);
export type SortingCriteria = Static<typeof SortingCriteria>;
export const Filter = Type.Object({
  IDs: Type.Object({ ID: Type.Integer(), ParentFilter: Type.Optional(Type.Integer()) }),
  Name: Type.String(),
  Size: Type.Integer(),
  IsLocked: Type.Boolean(),
  IsDirectory: Type.Boolean(),
  IsHidden: Type.Boolean(),
  ApplyAtSeriesLevel: Type.Boolean(),
  Expression: Type.Optional(FilterCondition),
  Sorting: Type.Optional(SortingCriteria),
});
export type Filter = Static<typeof Filter>;

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
const FilterParameterTypeSchema = StringEnum(FilterParameterTypes);
export const FilterExpressionGroups = ['Info', 'Logic', 'Function', 'Selector'] as const;
export type FilterExpressionGroup = (typeof FilterExpressionGroups)[number];

export const FilterExpressionHelp = Type.Object({
  Expression: Type.String(),
  Name: Type.String(),
  Group: StringEnum(FilterExpressionGroups),
  Description: Type.String(),
  Type: FilterParameterTypeSchema,
  Left: Type.Optional(FilterParameterTypeSchema),
  Right: Type.Optional(FilterParameterTypeSchema),
  Parameter: Type.Optional(FilterParameterTypeSchema),
  SecondParameter: Type.Optional(FilterParameterTypeSchema),
  PossibleParameters: Type.Optional(Type.Array(Type.String())),
  PossibleSecondParameters: Type.Optional(Type.Array(Type.String())),
  PossibleParameterPairs: Type.Optional(Type.Array(Type.Array(Type.String()))),
});
export type FilterExpressionHelp = Static<typeof FilterExpressionHelp>;

export const SortingCriteriaHelp = Type.Object({ Type: Type.String(), Name: Type.String(), Description: Type.String() });
export type SortingCriteriaHelp = Static<typeof SortingCriteriaHelp>;

/** §2.9 */
export const WebUIGroupExtra = Type.Object({
  ID: Type.Integer(),
  Type: AnimeTypeSchema,
  Rating: Rating,
  AirDate: Nullable(Type.String()),
  EndDate: Nullable(Type.String()),
  Tags: Type.Array(
    Type.Object({
      ID: Type.Integer(),
      ParentID: Nullable(Type.Integer()),
      Name: Type.String(),
      IsSpoiler: Type.Boolean(),
      Weight: Type.Optional(Type.Integer()),
      Source: Type.String(),
    }),
  ),
});
export type WebUIGroupExtra = Static<typeof WebUIGroupExtra>;

export const WebUIGroupViewBody = Type.Object({
  GroupIDs: Type.Array(Type.Integer(), { maxItems: 100 }),
  TagFilter: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
  TagLimit: Type.Optional(Type.Integer({ minimum: 0 })),
  OrderByName: Type.Optional(Type.Boolean()),
});
export type WebUIGroupViewBody = Static<typeof WebUIGroupViewBody>;
