import { Type, type Static } from '@sinclair/typebox';

export const TagParams = Type.Object({ tagID: Type.Integer({ minimum: 1 }) });
export type TagParams = Static<typeof TagParams>;

/** Series/{id}/Tags: `filter` is a TagFilter number or a comma list of its flag names. */
export const SeriesTagsQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  excludeDescriptions: Type.Boolean({ default: false }),
  orderByName: Type.Boolean({ default: false }),
  onlyVerified: Type.Boolean({ default: true }),
  includeCount: Type.Boolean({ default: false }),
});
export type SeriesTagsQuery = Static<typeof SeriesTagsQuery>;

/** Series/{id}/Tags/User (GET). */
export const SeriesUserTagsQuery = Type.Object({
  excludeDescriptions: Type.Boolean({ default: false }),
  includeCount: Type.Boolean({ default: false }),
});
export type SeriesUserTagsQuery = Static<typeof SeriesUserTagsQuery>;

/** Series/{id}/Tags/User (POST, DELETE): the user tag ids to add or remove. */
export const SeriesUserTagIdsBody = Type.Object({ IDs: Type.Array(Type.Integer(), { minItems: 1 }) });
export type SeriesUserTagIdsBody = Static<typeof SeriesUserTagIdsBody>;

/**
 * Tag/User (POST) and Tag/User/{id} (PUT): Tag.Input.CreateOrUpdateCustomTagBody. The console sends `name`/`description`;
 * keys are matched case-insensitively, so the schema accepts any keys and the server reads them.
 */
export const UserTagBody = Type.Record(Type.String(), Type.Unknown());
export type UserTagBody = Static<typeof UserTagBody>;

/** Tag/User (GET). */
export const UserTagListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  excludeDescriptions: Type.Boolean({ default: false }),
  includeCount: Type.Boolean({ default: false }),
});
export type UserTagListQuery = Static<typeof UserTagListQuery>;

/** Tag/User/{id} (GET, PUT). */
export const UserTagQuery = Type.Object({ includeCount: Type.Boolean({ default: false }) });
export type UserTagQuery = Static<typeof UserTagQuery>;

/** Tag/AniDB: `filter` is a TagFilter number. */
export const AnidbTagListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  filter: Type.Optional(Type.String()),
  excludeDescriptions: Type.Boolean({ default: false }),
  onlyVerified: Type.Boolean({ default: true }),
  includeCount: Type.Boolean({ default: false }),
});
export type AnidbTagListQuery = Static<typeof AnidbTagListQuery>;

/** Tag/AniDB/{tagID}: note the singular `excludeDescription`. */
export const AnidbTagQuery = Type.Object({
  excludeDescription: Type.Boolean({ default: false }),
  includeCount: Type.Boolean({ default: false }),
});
export type AnidbTagQuery = Static<typeof AnidbTagQuery>;
