import { Type, type Static } from '@sinclair/typebox';

export const CommunitySite = Type.Union([Type.Literal('AniDB'), Type.Literal('Trakt'), Type.Literal('Plex')]);
export type CommunitySite = Static<typeof CommunitySite>;

export const User = Type.Object({
  ID: Type.Integer(),
  Username: Type.String(),
  IsAdmin: Type.Boolean(),
  CommunitySites: Type.Array(CommunitySite),
  RestrictedTags: Type.Array(Type.Integer()),
  Avatar: Type.String(),
  PlexUsernames: Type.String(),
});
export type User = Static<typeof User>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const CreateOrUpdateUserBody = Type.Object({
  Username: Type.Optional(Nullable(Type.String())),
  IsAdmin: Type.Optional(Nullable(Type.Boolean())),
  CommunitySites: Type.Optional(Nullable(Type.Array(Type.String()))),
  RestrictedTags: Type.Optional(Nullable(Type.Array(Type.Integer()))),
  Avatar: Type.Optional(Nullable(Type.String())),
  PlexUsernames: Type.Optional(Nullable(Type.String())),
});
export type CreateOrUpdateUserBody = Static<typeof CreateOrUpdateUserBody>;

export const CreateUserBody = Type.Composite([CreateOrUpdateUserBody, Type.Object({ Password: Type.String({ maxLength: 1024 }) })]);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const ChangePasswordBody = Type.Object({
  Password: Type.String({ maxLength: 1024 }),
  RevokeAPIKeys: Type.Optional(Type.Boolean({ default: true })),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** `User/{userID}`. */
export const UserIdParams = Type.Object({ userID: Type.Integer({ minimum: 1 }) });
export type UserIdParams = Static<typeof UserIdParams>;
