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

/**
 * `GET|PUT User/Current/WebUISettings` (our addition, issue 44): the caller's own console settings, so an account that
 * may not read the server settings still keeps its display choices. `WebUI_Settings` is the same JSON text as the
 * server setting of that name; an account that has saved none gets the server's as its starting point.
 */
export const UserWebUISettings = Type.Object({
  WebUI_Settings: Type.String({ description: 'JSON text of an object, owned by the console; "" means its defaults.' }),
  IsOwn: Type.Boolean({ description: "Whether the account saved these itself (false: the server's WebUI_Settings)." }),
});
export type UserWebUISettings = Static<typeof UserWebUISettings>;

/** The largest `WebUI_Settings` text an account may save, in UTF-8 bytes. */
export const USER_WEBUI_SETTINGS_MAX_BYTES = 64 * 1024;

export const UserWebUISettingsBody = Type.Object({
  WebUI_Settings: Type.String({ description: 'JSON text of an object, at most 64 kB.' }),
});
export type UserWebUISettingsBody = Static<typeof UserWebUISettingsBody>;
