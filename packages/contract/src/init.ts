import { Type, type Static } from '@sinclair/typebox';

export const ReleaseChannel = Type.Union([Type.Literal('Auto'), Type.Literal('Stable'), Type.Literal('Dev'), Type.Literal('Debug')]);
export type ReleaseChannel = Static<typeof ReleaseChannel>;

export const ComponentVersion = Type.Object({
  Version: Type.Union([Type.String(), Type.Null()]),
  MinimumServerVersion: Type.Optional(Type.String()),
  Commit: Type.Optional(Type.String()),
  ReleaseChannel: Type.Optional(ReleaseChannel),
  ReleaseDate: Type.Optional(Type.String()),
  Tag: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
});
export type ComponentVersion = Static<typeof ComponentVersion>;

export const ComponentVersionSet = Type.Object({
  Server: ComponentVersion,
  Commons: Type.Optional(Type.Object({ Version: Type.Union([Type.String(), Type.Null()]) })),
  Models: Type.Optional(Type.Object({ Version: Type.Union([Type.String(), Type.Null()]) })),
  MediaInfo: Type.Optional(Type.Object({ Version: Type.Union([Type.String(), Type.Null()]) })),
  WebUI: Type.Optional(ComponentVersion),
  /** Our own product (shoko-ts) version, shown beside the Shoko API level. Extra field; Shoko's clients ignore it. */
  Product: Type.Optional(ComponentVersion),
});
export type ComponentVersionSet = Static<typeof ComponentVersionSet>;

export const ServerState = Type.Union([Type.Literal('Starting'), Type.Literal('Started'), Type.Literal('Failed'), Type.Literal('Waiting')]);
export type ServerState = Static<typeof ServerState>;

export const DatabaseBlockedInfo = Type.Object({
  Progress: Type.Union([Type.Number(), Type.Null()]),
  Blocked: Type.Boolean(),
  Status: Type.Union([Type.String(), Type.Null()]),
});

export const ServerStatus = Type.Object({
  StartupMessage: Type.Union([Type.String(), Type.Null()]),
  State: ServerState,
  Uptime: Type.Union([Type.String(), Type.Null()]),
  DatabaseBlocked: DatabaseBlockedInfo,
});
export type ServerStatus = Static<typeof ServerStatus>;

export const Credentials = Type.Object({
  Username: Type.String(),
  Password: Type.String(),
});
export type Credentials = Static<typeof Credentials>;

export const NetworkAvailability = Type.Union([
  Type.Literal('NoInterfaces'),
  Type.Literal('NoGateways'),
  Type.Literal('LocalOnly'),
  Type.Literal('PartialInternet'),
  Type.Literal('Internet'),
]);
export type NetworkAvailability = Static<typeof NetworkAvailability>;

export const ConnectivityDetails = Type.Object({
  NetworkAvailability,
  LastChangedAt: Type.String(),
  IsAniDBUdpReachable: Type.Boolean(),
  IsAniDBHttpBanned: Type.Boolean(),
  IsAniDBUdpBanned: Type.Boolean(),
});
export type ConnectivityDetails = Static<typeof ConnectivityDetails>;

/** The lowest Shoko server version the official Web UI accepts; we report at least this API level. */
export const SHOKO_API_VERSION = '5.3.3.0';

/**
 * The file system of the data folder (database on SQLite, images, logs): its free and total bytes (null where they
 * cannot be read) and whether it is full: a write failed for want of space (the disk or PostgreSQL's) in the last
 * minutes and no space was freed since, or almost nothing is free. `LastFullAt`: that failure's time (ISO), or null.
 */
export const DataDiskHealth = Type.Object({
  FreeBytes: Type.Union([Type.Number(), Type.Null()]),
  TotalBytes: Type.Union([Type.Number(), Type.Null()]),
  Full: Type.Boolean(),
  LastFullAt: Type.Union([Type.String(), Type.Null()]),
});
export type DataDiskHealth = Static<typeof DataDiskHealth>;

/** `GET /healthz` (our addition, for Docker and monitoring): 200 when healthy, 503 with the same body when not. */
export const HealthReport = Type.Object({
  Status: Type.Union([Type.Literal('Healthy'), Type.Literal('Unhealthy')]),
  ServerState,
  Database: Type.Object({ Kind: Type.Union([Type.Literal('SQLite'), Type.Literal('PostgreSQL')]), Reachable: Type.Boolean() }),
  /** `Fault`: why the queue waits although nobody paused it (a full disk, a lost connection), or null. */
  Queue: Type.Object({ Running: Type.Boolean(), WaitingCount: Type.Integer(), Fault: Type.Union([Type.String(), Type.Null()]) }),
  /** A full data disk leaves the server healthy (reads work, a restart fixes nothing) but is shown here. */
  DataDisk: DataDiskHealth,
  /** Why the server is unhealthy; null when healthy. */
  Problems: Type.Array(Type.String()),
});
export type HealthReport = Static<typeof HealthReport>;
