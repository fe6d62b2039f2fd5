import { EventEmitter } from 'node:events';
import type { AniDBState, LogEvent, NetworkState, QueueState } from '@shoko-ts/contract';

/** Everything the server announces internally; the SignalR hubs and other domains subscribe here. */
export interface ServerEvents {
  log: LogEvent;
  'queue:state': QueueState;
  'anidb:udp': AniDBState;
  'anidb:http': AniDBState;
  'network:changed': NetworkState;
  /** `ShokoEvent:<name>` on the aggregate hub; payload as the contract describes per event. */
  shoko: { event: string; payload: unknown };
  /** `AVDump:Event` on the aggregate hub. */
  avdump: unknown;
  'settings:saved': { changedPaths: string[] };
}

export class EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  emit<K extends keyof ServerEvents>(name: K, payload: ServerEvents[K]): void {
    this.emitter.emit(name, payload);
  }
  /** Subscribes and returns the unsubscribe function. */
  on<K extends keyof ServerEvents>(name: K, listener: (payload: ServerEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
