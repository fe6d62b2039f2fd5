import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from './common.js';
import { AniDBState, FileEventCrossReference, NetworkState } from './events.js';
import { LogEvent } from './logs.js';
import { QueueState } from './queue.js';
import { SHOKO_IMPORT_PROGRESS_EVENT, ShokoImportStatus } from './shoko-import.js';

/**
 * The two SignalR hubs (contract server.md §9): every event target the server sends and the one argument it carries.
 * The server sends and the console listens through these tables, so a name or a payload is written once.
 */

export const LOGGING_HUB_PATH = '/signalr/logging';
export const AGGREGATE_HUB_PATH = '/signalr/aggregate';

/**
 * Ours: every API answer carries the server's event revision when its request arrived, the count of `ShokoEvent`s
 * raised so far. An answer whose revision is below the one the aggregate hub's `Revision:OnConnected` gives may have
 * missed an event sent before the connection; one at or above it cannot have.
 */
export const EVENT_REVISION_HEADER = 'X-Event-Revision';

// ---------------------------------------------------------------- `/signalr/logging`

export const LoggingHubEvents = {
  /** Right after connecting: the most recent entries, oldest first. */
  GetBacklog: Type.Array(LogEvent),
  Log: LogEvent,
};

// ---------------------------------------------------------------- the `shoko` feed (`ShokoEvent:<name>`)

/** Who changed a series, episode or movie (a string on the wire). */
export const ShokoEventSource = StringEnum(['User', 'Shoko', 'AniDB', 'TMDB', 'TvDB', 'AniList', 'Animeshon'] as const);
export type ShokoEventSource = Static<typeof ShokoEventSource>;

export const ShokoEventReason = StringEnum(['None', 'Added', 'Updated', 'Removed', 'ImageAdded', 'ImageUpdated', 'ImageRemoved'] as const);
export type ShokoEventReason = Static<typeof ShokoEventReason>;

/** `FileDetected`: a new file was seen in a folder, before it has a record. */
export const FileDetectedEvent = Type.Object({ RelativePath: Type.String(), ImportFolderID: Type.Integer() });
export type FileDetectedEvent = Static<typeof FileDetectedEvent>;

/** `FileHashed`, `FileMatched`, `FileDeleted`: one location of a file, with the file's links. */
export const FileEvent = Type.Object({
  FileID: Type.Integer(),
  FileLocationID: Type.Integer(),
  ImportFolderID: Type.Integer(),
  RelativePath: Type.String(),
  CrossReferences: Type.Array(FileEventCrossReference),
});
export type FileEvent = Static<typeof FileEvent>;

/** `FileNotMatched`: AniDB did not know the file; a manual unlink sends the plain file event without the three fields. */
export const FileNotMatchedEvent = Type.Composite([
  FileEvent,
  Type.Object({
    AutoMatchAttempts: Type.Optional(Type.Integer()),
    HasCrossReferences: Type.Optional(Type.Boolean()),
    IsUDPBanned: Type.Optional(Type.Boolean()),
  }),
]);
export type FileNotMatchedEvent = Static<typeof FileNotMatchedEvent>;

/** `FileRenamed`: only the name changed. */
export const FileRenamedEvent = Type.Composite([FileEvent, Type.Object({ FileName: Type.String(), PreviousFileName: Type.String() })]);
export type FileRenamedEvent = Static<typeof FileRenamedEvent>;

/** `FileMoved`: the folder or the directory changed. */
export const FileMovedEvent = Type.Composite([
  FileEvent,
  Type.Object({ PreviousRelativePath: Type.String(), PreviousImportFolderID: Type.Integer() }),
]);
export type FileMovedEvent = Static<typeof FileMovedEvent>;

/** Who changed a series, an episode or a movie, and how: the head of the three metadata events. */
const metadataChange = { Source: ShokoEventSource, Reason: ShokoEventReason };

export const SeriesUpdatedEpisode = Type.Object({
  Reason: ShokoEventReason,
  /** The metadata source's episode id (AniDB's for Source AniDB). */
  EpisodeID: Type.Integer(),
  ShokoEpisodeIDs: Type.Array(Type.Integer()),
});
export type SeriesUpdatedEpisode = Static<typeof SeriesUpdatedEpisode>;

/** `SeriesUpdated`: `SeriesID` is the source's id (AniDB anime, TMDB show or movie); `ShokoSeriesIDs` ours. */
export const SeriesUpdatedEvent = Type.Object({
  ...metadataChange,
  SeriesID: Type.Integer(),
  ShokoSeriesIDs: Type.Array(Type.Integer()),
  Episodes: Type.Array(SeriesUpdatedEpisode),
});
export type SeriesUpdatedEvent = Static<typeof SeriesUpdatedEvent>;

export const EpisodeUpdatedEvent = Type.Object({
  ...metadataChange,
  EpisodeID: Type.Integer(),
  SeriesID: Type.Integer(),
  ShokoEpisodeIDs: Type.Array(Type.Integer()),
  ShokoSeriesIDs: Type.Array(Type.Integer()),
});
export type EpisodeUpdatedEvent = Static<typeof EpisodeUpdatedEvent>;

/** `MovieUpdated` (Shoko sends it for TMDB movies; this server announces movies as SeriesUpdated). */
export const MovieUpdatedEvent = Type.Object({
  ...metadataChange,
  MovieID: Type.Integer(),
  ShokoEpisodeIDs: Type.Array(Type.Integer()),
  ShokoSeriesIDs: Type.Array(Type.Integer()),
});
export type MovieUpdatedEvent = Static<typeof MovieUpdatedEvent>;

/** `ImportFolderAvailabilityChanged` (our extension): a folder went offline or came back; its records are kept. */
export const ImportFolderAvailabilityEvent = Type.Object({
  ImportFolderID: Type.Integer(),
  IsAvailable: Type.Boolean(),
  UnavailableSince: Nullable(Type.String()),
  UnavailableReason: Nullable(Type.String()),
  /** Location records in the folder. */
  FileCount: Type.Integer(),
});
export type ImportFolderAvailabilityEvent = Static<typeof ImportFolderAvailabilityEvent>;

/** Every event of the `shoko` feed after `OnConnected`, by name. */
export const ShokoEvents = {
  FileDetected: FileDetectedEvent,
  FileHashed: FileEvent,
  FileMatched: FileEvent,
  FileDeleted: FileEvent,
  FileNotMatched: FileNotMatchedEvent,
  FileRenamed: FileRenamedEvent,
  FileMoved: FileMovedEvent,
  SeriesUpdated: SeriesUpdatedEvent,
  EpisodeUpdated: EpisodeUpdatedEvent,
  MovieUpdated: MovieUpdatedEvent,
  ImportFolderAvailabilityChanged: ImportFolderAvailabilityEvent,
  [SHOKO_IMPORT_PROGRESS_EVENT]: ShokoImportStatus,
};
export type ShokoEventName = keyof typeof ShokoEvents;
export type ShokoEventPayload<N extends ShokoEventName> = Static<(typeof ShokoEvents)[N]>;

/** One raised `shoko` event as the server passes it around before the hub sends it as `ShokoEvent:<event>`. */
export type RaisedShokoEvent = { [N in ShokoEventName]: { event: N; payload: ShokoEventPayload<N> } }[ShokoEventName];

/** File events after which file lists and folder sizes may have changed. */
export const FILE_EVENT_NAMES = ['FileDetected', 'FileHashed', 'FileMatched', 'FileMoved', 'FileRenamed', 'FileDeleted'] as const;

// ---------------------------------------------------------------- the `avdump` feed

export const AVDumpEventType = StringEnum([
  'Message',
  'Error',
  'Progress',
  'CreqUpdate',
  'ED2KLink',
  'Started',
  'Success',
  'Failure',
  'Restore',
  'GenericException',
  'MissingApiKey',
  'InvalidCredentials',
  'Timeout',
  'InstallingAVDump',
  'InstalledAVDump',
  'InstallException',
] as const);
export type AVDumpEventType = Static<typeof AVDumpEventType>;

/** `AVDump:Event` (files.md §11.3): members that are not set are left out, not null. */
export const AVDumpEvent = Type.Object({
  Type: AVDumpEventType,
  SessionID: Type.Optional(Type.Integer()),
  VideoIDs: Type.Optional(Type.Array(Type.Integer())),
  Progress: Type.Optional(Type.Number()),
  SucceededCreqCount: Type.Optional(Type.Integer()),
  FailedCreqCount: Type.Optional(Type.Integer()),
  PendingCreqCount: Type.Optional(Type.Integer()),
  /** Lower-case on the wire. */
  ed2ks: Type.Optional(Type.Array(Type.String())),
  Message: Type.Optional(Type.String()),
  ErrorMessage: Type.Optional(Type.String()),
  ExceptionStackTrace: Type.Optional(Type.String()),
  StartedAt: Type.Optional(Type.String()),
  EndedAt: Type.Optional(Type.String()),
});
export type AVDumpEvent = Static<typeof AVDumpEvent>;

// ---------------------------------------------------------------- `/signalr/aggregate`

/** The `ShokoEvent:<name>` entries of the aggregate hub, built from `ShokoEvents`. */
type ShokoEventTargets = { [N in ShokoEventName as `ShokoEvent:${N}`]: (typeof ShokoEvents)[N] };
const shokoEventTargets = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ Object.entries(ShokoEvents).map(([name, schema]) => [`ShokoEvent:${name}`, schema]),
) as ShokoEventTargets;

/** Every target of the aggregate hub; each feed first sends its `<Group>:OnConnected` snapshot. */
export const AggregateHubEvents = /* @__PURE__ */ Object.assign(
  {
    'Queue:OnConnected': QueueState,
    /** A job started or ended, or the queue was paused or resumed (not on a mere enqueue). */
    'Queue:QueueStateChanged': QueueState,
    /** Index 0 the UDP state, 1 the HTTP state. */
    'AniDB:OnConnected': Type.Tuple([AniDBState, AniDBState]),
    'AniDB:AniDBUDPStateUpdate': AniDBState,
    'AniDB:AniDBHttpStateUpdate': AniDBState,
    'Network:OnConnected': NetworkState,
    /** Only when the availability value changed. */
    'Network:NetworkAvailabilityChanged': NetworkState,
    /** One `Restore` event per running session. */
    'AVDump:OnConnected': Type.Array(AVDumpEvent),
    'AVDump:Event': AVDumpEvent,
    'ShokoEvent:OnConnected': Type.Null(),
    /** Ours, on the `revision` feed only: the event revision when the connection joined (EVENT_REVISION_HEADER). */
    'Revision:OnConnected': Type.Integer(),
  },
  shokoEventTargets,
);

export type LoggingHubEvent = keyof typeof LoggingHubEvents;
export type AggregateHubEvent = keyof typeof AggregateHubEvents;
/** A hub's events: target → schema of the one argument sent with it. */
export type HubEventTable = Record<string, TSchema>;
/** The one argument sent with a hub's event target. */
export type HubEventPayload<Events extends HubEventTable, E extends keyof Events> = Static<Events[E]>;
export type LoggingHubPayload<E extends LoggingHubEvent> = HubEventPayload<typeof LoggingHubEvents, E>;
export type AggregateHubPayload<E extends AggregateHubEvent> = HubEventPayload<typeof AggregateHubEvents, E>;
