import { Type, type Static } from '@sinclair/typebox';

export const QueueItem = Type.Object({
  Key: Type.String(),
  Type: Type.String(),
  Title: Type.String(),
  Details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  IsRunning: Type.Boolean(),
  StartTime: Type.Union([Type.String(), Type.Null()]),
  IsBlocked: Type.Boolean(),
});
export type QueueItem = Static<typeof QueueItem>;

/**
 * Our extension: why the queue cannot take jobs now although nobody paused it (the data disk is full, the database
 * connection was lost…), since when, and when it tries again by itself (ISO times).
 */
export const QueueFault = Type.Object({
  Reason: Type.String(),
  Since: Type.String(),
  RetryAt: Type.Union([Type.String(), Type.Null()]),
});
export type QueueFault = Static<typeof QueueFault>;

export const Queue = Type.Object({
  WaitingCount: Type.Integer(),
  BlockedCount: Type.Integer(),
  TotalCount: Type.Integer(),
  ThreadCount: Type.Integer(),
  CurrentlyExecuting: Type.Array(QueueItem),
  /** Extension (absent in Shoko): null unless a fault of the database or its disk holds the queue. */
  Fault: Type.Optional(Type.Union([QueueFault, Type.Null()])),
});
export type Queue = Static<typeof Queue>;

/** SignalR `Queue:*` payload: the REST snapshot plus the paused/running flag. */
export const QueueState = Type.Composite([Type.Object({ Running: Type.Boolean() }), Queue]);
export type QueueState = Static<typeof QueueState>;

/** `GET Queue/Types`: job type → how many jobs of it are queued (running or waiting). */
export const QueueTypeCounts = Type.Record(Type.String(), Type.Integer());
export type QueueTypeCounts = Static<typeof QueueTypeCounts>;

/** `GET Queue/Items`; `showAll` adds the jobs held back (an AniDB ban), flagged `IsBlocked`. */
export const QueueItemsQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 10 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  showAll: Type.Boolean({ default: false }),
});
export type QueueItemsQuery = Static<typeof QueueItemsQuery>;

/** The queue operations of `POST Queue/{operation}`. */
export type QueueOperation = 'Pause' | 'Resume' | 'Clear';

/**
 * `GET Queue/AcquisitionFilters`: filter name → job types it currently holds back (AniDB bans, back-off pauses and a
 * refused login hold the jobs that need AniDB). Diagnostic only.
 */
export const QueueAcquisitionFilters = Type.Record(Type.String(), Type.Array(Type.String()));
export type QueueAcquisitionFilters = Static<typeof QueueAcquisitionFilters>;

/**
 * `GET Queue/DebugStats`: diagnostic, format not contractual. `TypesToExclude`: job kinds not started now (at their
 * concurrency limit); `TypesToLimit`: job kind → most at once; `AvailableConcurrencyGroups`: limited kinds with a free
 * slot, one group per kind.
 */
export const QueueDebugStats = Type.Object({
  Queue,
  TypesToExclude: Type.Array(Type.String()),
  TypesToLimit: Type.Record(Type.String(), Type.Integer()),
  AvailableConcurrencyGroups: Type.Array(Type.Array(Type.String())),
  AcquisitionFilters: QueueAcquisitionFilters,
});
export type QueueDebugStats = Static<typeof QueueDebugStats>;
