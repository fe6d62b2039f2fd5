import { EventEmitter } from 'node:events';
import type { AniDBState, AVDumpEvent, LogEvent, NetworkState, QueueState, RaisedShokoEvent } from '@shoko-ts/contract';

/** Everything the server announces internally; the SignalR hubs and other domains subscribe here. */
export interface ServerEvents {
  log: LogEvent;
  'queue:state': QueueState;
  'anidb:udp': AniDBState;
  'anidb:http': AniDBState;
  'network:changed': NetworkState;
  /** `ShokoEvent:<name>` on the aggregate hub; the contract's `ShokoEvents` gives each name its payload. */
  shoko: RaisedShokoEvent;
  /** `AVDump:Event` on the aggregate hub. */
  avdump: AVDumpEvent;
  'settings:saved': { changedPaths: string[] };
  /**
   * A background job ended (done or failed): whatever it changed is committed. `changed` false: it failed without
   * writing to the database, so nothing kept from the collection is out of date (absent: it may have changed anything).
   * `tables`: the tables it wrote beyond the queue's bookkeeping (null or absent: it cannot be told).
   */
  'job:finished': { type: string; changed?: boolean; tables?: ReadonlySet<string> | null };
  /** A user's watched state of these episodes changed (only the ones that did); `source` says who changed it. */
  'watched:changed': { userId: number; episodeIds: number[]; watched: boolean; source: WatchedSource };
  /**
   * A player reported on a file (File/{id}/Scrobble with an event): `progress` in percent of the file's length (null
   * when the length is unknown), `watched` when the report marked it watched or unwatched.
   */
  playback: { userId: number; fileId: number; episodeIds: number[]; event: string; progress: number | null; watched?: boolean };
}

/** `User`: a watched toggle or a sync from another service; `Player`: a player's scrobble; `Trakt`: Trakt's own sync. */
export type WatchedSource = 'User' | 'Player' | 'Trakt';

export class EventBus {
  private readonly emitter = new EventEmitter();
  // Starts at the start-up time in ms, so that it never goes back across a restart.
  private shokoRevision = Date.now();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  /**
   * How many `shoko` events were raised: an answer read while the revision was lower than a client's live-feed
   * connection says may predate an event the client never heard (see EVENT_REVISION_HEADER).
   */
  get revision(): number {
    return this.shokoRevision;
  }
  emit<K extends keyof ServerEvents>(name: K, payload: ServerEvents[K]): void {
    if (name === 'shoko') this.shokoRevision++;
    this.emitter.emit(name, payload);
  }
  /** Subscribes and returns the unsubscribe function. */
  on<K extends keyof ServerEvents>(name: K, listener: (payload: ServerEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
