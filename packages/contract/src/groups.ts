import { Type, type Static } from '@sinclair/typebox';
import { CollectionListParam, CollectionPage, CollectionPageSize } from './collection.js';

// Request schemas of the Group routes (contract §3) and of the series ↔ group routes; the models are in collection.ts.

export const GroupIDParams = Type.Object({ groupID: Type.Integer({ minimum: 1 }) });
export type GroupIDParams = Static<typeof GroupIDParams>;

/** GET Group */
export const GroupListQuery = Type.Object({
  pageSize: CollectionPageSize(50),
  page: CollectionPage,
  includeEmpty: Type.Boolean({ default: false }),
  randomImages: Type.Boolean({ default: false }),
  topLevelOnly: Type.Boolean({ default: true }),
  startsWith: Type.String({ default: '' }),
});
export type GroupListQuery = Static<typeof GroupListQuery>;

/** DELETE Group/{groupID} */
export const DeleteGroupQuery = Type.Object({
  deleteSeries: Type.Boolean({ default: false }),
  deleteFiles: Type.Boolean({ default: false }),
});
export type DeleteGroupQuery = Static<typeof DeleteGroupQuery>;

/** GET Group/{groupID}/Series, and the same under a saved or live filter. */
export const GroupSeriesQuery = Type.Object({
  recursive: Type.Boolean({ default: false }),
  includeMissing: Type.Boolean({ default: true }),
  randomImages: Type.Boolean({ default: false }),
  includeDataFrom: CollectionListParam,
});
export type GroupSeriesQuery = Static<typeof GroupSeriesQuery>;

/** GET Group/Letters */
export const GroupLettersQuery = Type.Object({
  includeEmpty: Type.Boolean({ default: false }),
  topLevelOnly: Type.Boolean({ default: true }),
});
export type GroupLettersQuery = Static<typeof GroupLettersQuery>;

/** GET Group/{groupID}/Group, and the same under a saved or live filter. */
export const SubGroupsQuery = Type.Object({
  randomImages: Type.Boolean({ default: false }),
  includeEmpty: Type.Boolean({ default: true }),
});
export type SubGroupsQuery = Static<typeof SubGroupsQuery>;

/** GET Group/{groupID}/Parent and GET Series/{seriesID}/Group */
export const GroupTopLevelQuery = Type.Object({ topLevel: Type.Boolean({ default: false }) });
export type GroupTopLevelQuery = Static<typeof GroupTopLevelQuery>;

/** GET Group/{groupID}/Relations */
export const GroupRelationsQuery = Type.Object({ recursive: Type.Boolean({ default: false }) });
export type GroupRelationsQuery = Static<typeof GroupRelationsQuery>;

/** GET Group/{groupID}/MainSeries */
export const GroupMainSeriesQuery = Type.Object({ randomImages: Type.Boolean({ default: false }), includeDataFrom: CollectionListParam });
export type GroupMainSeriesQuery = Static<typeof GroupMainSeriesQuery>;

/** GET Series/{seriesID}/Group */
/** PATCH Series/{seriesID}/Move/{groupID} */
export const SeriesMoveParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }), groupID: Type.Integer({ minimum: 1 }) });
export type SeriesMoveParams = Static<typeof SeriesMoveParams>;
