import { Type, type Static } from '@sinclair/typebox';
import { NetworkAvailability } from './init.js';

/** Feeds of `/signalr/aggregate?feeds=…`. */
export const AGGREGATE_FEEDS = ['anidb', 'queue', 'shoko', 'avdump', 'network'] as const;
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
