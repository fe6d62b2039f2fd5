import { Type, type Static } from '@sinclair/typebox';
import { CollectionListParam, CollectionPage, CollectionPageSize, CreateOrUpdateFilterBody } from './collection.js';
import { GroupIDParams } from './groups.js';

// Request schemas of the Filter routes (contract §4, §7), Preview included; the models are in collection.ts.

/** A saved filter. */
export const FilterIDParams = Type.Object({ filterID: Type.Integer({ minimum: 1 }) });
export type FilterIDParams = Static<typeof FilterIDParams>;

/** A saved filter, or 0 for no filter (the saved-filter browsing routes, contract §4.3–§4.7). */
export const AnyFilterIDParams = Type.Object({ filterID: Type.Integer({ minimum: 0 }) });
export type AnyFilterIDParams = Static<typeof AnyFilterIDParams>;

/** Filter/{filterID}/Group/{groupID}/… */
export const FilterGroupParams = Type.Composite([AnyFilterIDParams, GroupIDParams]);
export type FilterGroupParams = Static<typeof FilterGroupParams>;

/** GET Filter */
export const FilterListQuery = Type.Object({
  includeEmpty: Type.Boolean({ default: false }),
  includeEmptyGroups: Type.Boolean({ default: true }),
  showHidden: Type.Boolean({ default: false }),
  pageSize: CollectionPageSize(10),
  page: CollectionPage,
  withConditions: Type.Boolean({ default: false }),
});
export type FilterListQuery = Static<typeof FilterListQuery>;

/** GET Filter/Expressions */
export const FilterExpressionsQuery = Type.Object({ types: CollectionListParam, groups: CollectionListParam });
export type FilterExpressionsQuery = Static<typeof FilterExpressionsQuery>;

/** GET Filter/{filterID} */
export const FilterGetQuery = Type.Object({
  withConditions: Type.Boolean({ default: false }),
  includeEmptyGroups: Type.Boolean({ default: true }),
});
export type FilterGetQuery = Static<typeof FilterGetQuery>;

/** GET Filter/{filterID}/Filter */
export const FilterChildrenQuery = Type.Object({
  pageSize: CollectionPageSize(50),
  page: CollectionPage,
  showHidden: Type.Boolean({ default: false }),
});
export type FilterChildrenQuery = Static<typeof FilterChildrenQuery>;

/** GET Filter/{filterID}/Group and POST Filter/Preview/Group */
export const FilterGroupsQuery = Type.Object({
  pageSize: CollectionPageSize(50),
  page: CollectionPage,
  includeEmpty: Type.Boolean({ default: true }),
  randomImages: Type.Boolean({ default: false }),
  orderByName: Type.Boolean({ default: false }),
});
export type FilterGroupsQuery = Static<typeof FilterGroupsQuery>;

/** GET Filter/{filterID}/Group/Letters and POST Filter/Preview/Group/Letters */
export const FilterGroupLettersQuery = Type.Object({ includeEmpty: Type.Boolean({ default: true }) });
export type FilterGroupLettersQuery = Static<typeof FilterGroupLettersQuery>;

/** GET Filter/{filterID}/Series and POST Filter/Preview/Series */
export const FilterSeriesQuery = Type.Object({
  pageSize: CollectionPageSize(50),
  page: CollectionPage,
  randomImages: Type.Boolean({ default: false }),
  includeMissing: Type.Boolean({ default: true }),
});
export type FilterSeriesQuery = Static<typeof FilterSeriesQuery>;

/** GET Filter/{filterID}/Parent */
export const FilterParentQuery = Type.Object({
  topLevel: Type.Boolean({ default: false }),
  withConditions: Type.Boolean({ default: false }),
  includeEmptyGroups: Type.Boolean({ default: false }),
});
export type FilterParentQuery = Static<typeof FilterParentQuery>;

/** The body of every Preview ("live filter") route: an unsaved filter, or nothing. */
export const FilterPreviewBody = Type.Union([CreateOrUpdateFilterBody, Type.Null()]);
export type FilterPreviewBody = CreateOrUpdateFilterBody | null;
