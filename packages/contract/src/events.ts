import { Type, type Static } from '@sinclair/typebox';
import { NetworkAvailability } from './init.js';

/**
 * Feeds of `/signalr/aggregate?feeds=…`. `revision` is ours (Shoko has no such feed): its `Revision:OnConnected` gives
 * the event revision at the moment the connection joined the feeds (see EVENT_REVISION_HEADER).
 */
export const AGGREGATE_FEEDS = ['anidb', 'queue', 'shoko', 'avdump', 'network', 'revision'] as const;
export type AggregateFeed = (typeof AGGREGATE_FEEDS)[number];

/** Numeric on the hub: 0 None, 1 UDPBan, 2 HTTPBan, 3 InvalidSession, 4 OverloadBackoff, 5 WaitingOnResponse. */
export const AniDBUpdateType = {
  None: 0,
  UDPBan: 1,
  HTTPBan: 2,
  InvalidSession: 3,
  OverloadBackoff: 4,
  WaitingOnResponse: 5,
} as const;

export const AniDBState = Type.Object({
  Value: Type.Boolean(),
  Message: Type.Union([Type.String(), Type.Null()]),
  UpdateType: Type.Integer(),
  UpdateTime: Type.String(),
  PauseTimeSecs: Type.Integer(),
});
export type AniDBState = Static<typeof AniDBState>;

export const NetworkState = Type.Object({
  NetworkAvailability,
  LastChangedAt: Type.String(),
});
export type NetworkState = Static<typeof NetworkState>;

/** `AniDB/BanStatus` (REST): unlike the hub's AniDBState, `Type` is the update type's name and times are local. */
export const AnidbBannedStatus = Type.Object({
  Type: Type.Union(/* @__PURE__ */ Object.keys(AniDBUpdateType).map((name) => Type.Literal(name))),
  IsBanned: Type.Boolean(),
  /** TimeSpan text, only while banned. */
  BanDuration: Type.Union([Type.String(), Type.Null()]),
  /** Server local time with its offset (not UTC), as Shoko writes it. */
  LastUpdatedAt: Type.String(),
});
export type AnidbBannedStatus = Static<typeof AnidbBannedStatus>;

export const AnidbBanStatus = Type.Object({ UDP: AnidbBannedStatus, HTTP: AnidbBannedStatus });
export type AnidbBanStatus = Static<typeof AnidbBanStatus>;

/** One link of a file in the `CrossReferences` of the hub's file events (contract files.md §11.2). */
export const FileEventCrossReference = Type.Object({
  EpisodeID: Type.Union([Type.Integer(), Type.Null()]),
  AnidbEpisodeID: Type.Integer(),
  SeriesID: Type.Union([Type.Integer(), Type.Null()]),
  AnidbAnimeID: Type.Integer(),
  GroupID: Type.Union([Type.Integer(), Type.Null()]),
});
export type FileEventCrossReference = Static<typeof FileEventCrossReference>;
