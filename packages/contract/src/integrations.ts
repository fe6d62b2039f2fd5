import { Type, type Static } from '@sinclair/typebox';

/** Trakt and Plex helper routes (contract server.md §8). */

/** `GET /api/trakt/code`: lower-case keys, as Shoko's v2 module answers. */
export const TraktCode = Type.Object({
  usercode: Type.String(),
  url: Type.String(),
});
export type TraktCode = Static<typeof TraktCode>;

export const PlexConnection = Type.Object({
  Protocol: Type.String(),
  Address: Type.String(),
  Port: Type.String(),
  Uri: Type.String(),
  Local: Type.String(),
});
export type PlexConnection = Static<typeof PlexConnection>;

/** A device of the Plex account (`GET /plex/server/list` lists those providing `server`). All strings, as Shoko. */
export const PlexMediaDevice = Type.Object({
  Connection: Type.Array(PlexConnection),
  Name: Type.String(),
  Product: Type.String(),
  ProductVersion: Type.String(),
  Platform: Type.String(),
  PlatformVersion: Type.String(),
  Device: Type.String(),
  ClientIdentifier: Type.String(),
  CreatedAt: Type.String(),
  LastSeenAt: Type.String(),
  Provides: Type.String(),
  Owned: Type.String(),
  /** Always "" here: the server's access token stays on the server. */
  AccessToken: Type.String(),
  PublicAddress: Type.String(),
  HttpsRequired: Type.String(),
  Synced: Type.String(),
  Relay: Type.String(),
  PublicAddressMatches: Type.String(),
  Presence: Type.String(),
  OwnerId: Type.String(),
  Home: Type.String(),
  SourceTitle: Type.String(),
});
export type PlexMediaDevice = Static<typeof PlexMediaDevice>;

/** PlexType: 0 Track, 1 Show, 2 Artist, 3 Movie, 4 Episode, 5 Photo. */
export const PlexLibraryType = { Track: 0, Show: 1, Artist: 2, Movie: 3, Episode: 4, Photo: 5 } as const;

/** A library section of the selected server (`GET /plex/libraries`). */
export const PlexDirectory = Type.Object({
  AllowSync: Type.Boolean(),
  Art: Type.String(),
  Composite: Type.String(),
  Filters: Type.Boolean(),
  Refreshing: Type.Boolean(),
  Thumb: Type.String(),
  Key: Type.Integer(),
  Type: Type.Integer(),
  Title: Type.String(),
  Agent: Type.String(),
  Scanner: Type.String(),
  Language: Type.String(),
  Uuid: Type.String(),
  UpdatedAt: Type.Integer(),
  CreatedAt: Type.Integer(),
  Location: Type.Array(Type.Object({ Id: Type.Integer(), Path: Type.String() })),
});
export type PlexDirectory = Static<typeof PlexDirectory>;

/** The library agents of Shoko's Plex plugins; the console lists only libraries using one of them. */
export const SHOKO_PLEX_AGENTS = ['com.plexapp.agents.shoko', 'com.plexapp.agents.shokorelay'] as const;

/** `POST /plex/server`: the server's ClientIdentifier as a bare JSON string (anything else is a 400 from the server). */
export const PlexServerBody = Type.Unknown();
export type PlexServerBody = string;

/** `POST /plex/libraries`: the section keys to sync (`[]` clears). */
export const PlexLibrariesBody = Type.Array(Type.Integer({ minimum: 0 }));
export type PlexLibrariesBody = Static<typeof PlexLibrariesBody>;

/** `GET /plex/sync/{id}`: the user whose watched states to sync. */
export const PlexSyncUserParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export type PlexSyncUserParams = Static<typeof PlexSyncUserParams>;

/** The v2 modules' status body (`/api/trakt/*`, `/api/webui/config`): `{ code, message, details }`. */
export const ApiV2Message = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  details: Type.Array(Type.Object({ Item1: Type.String(), Item2: Type.String() })),
});
export type ApiV2Message = Static<typeof ApiV2Message>;

/**
 * `GET /api/trakt/get` (legacy v2 Credentials). The Trakt tokens are write-only on this server (as in `GET Settings`),
 * so `token` and `refresh_token` are always `""`.
 */
export const TraktLegacyCredentials = Type.Object({
  login: Type.Null(),
  password: Type.Null(),
  port: Type.Integer(),
  token: Type.String(),
  refresh_token: Type.String(),
  apikey: Type.Null(),
  apiport: Type.Integer(),
});
export type TraktLegacyCredentials = Static<typeof TraktLegacyCredentials>;
