import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FILE_EVENT_NAMES, type AniDBState, type AVDumpEvent, type NetworkState, type QueueState } from '@shoko-ts/contract';
import { fileKeys, importFolderKeys } from '@/api/keys';
import { queueKeys } from '@/api/queue';
import { toast } from 'react-toastify';
import { takeAggregateFeed, type AggregateHandlers } from './aggregateFeed';
import { refreshMissedEvents } from './missedEvents';
import { applyAVDumpEvent, restoreAVDumpSessions, type AVDumpSessions } from './avdump';

/** The latest AniDB state of each kind (ban, back-off pause, refused login) of one protocol, by `UpdateType`. */
export type AniDBStates = Partial<Record<number, AniDBState>>;

export interface AggregateState {
  connected: boolean;
  queue: QueueState | null;
  network: NetworkState | null;
  anidbUdp: AniDBStates;
  anidbHttp: AniDBStates;
  /** AVDump sessions of this server run, by session id. */
  avdump: AVDumpSessions;
}

const initialState: AggregateState = { connected: false, queue: null, network: null, anidbUdp: {}, anidbHttp: {}, avdump: {} };
const AggregateContext = createContext<AggregateState>(initialState);

const QUEUE_THROTTLE_MS = 1000;
const FILE_EVENTS_THROTTLE_MS = 1000;

/** Live server state (queue, network, AniDB bans) for the logged-in shell; connects on mount, stops on unmount. */
export function AggregateHubProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AggregateState>(initialState);

  useEffect(() => {
    // Started at start-up when the console opened logged in (app/startup.ts), else now.
    const feed = takeAggregateFeed();
    const update = (patch: Partial<AggregateState>) => setState((previous) => ({ ...previous, ...patch }));

    // Queue changes can arrive in bursts; show the newest at most once a second.
    let pendingQueue: QueueState | null = null;
    let queueTimer: ReturnType<typeof setTimeout> | undefined;
    const onQueueChanged = (queue: QueueState) => {
      pendingQueue = queue;
      if (queueTimer) return;
      queueTimer = setTimeout(() => {
        queueTimer = undefined;
        update({ queue: pendingQueue });
        void queryClient.invalidateQueries({ queryKey: queueKeys.items });
      }, QUEUE_THROTTLE_MS);
    };

    // A scan emits one event per file: refetch at most once a second, so a long scan still shows progress.
    let fileEventsTimer: ReturnType<typeof setTimeout> | undefined;
    const onFileEvent = () => {
      if (fileEventsTimer) return;
      fileEventsTimer = setTimeout(() => {
        fileEventsTimer = undefined;
        void queryClient.invalidateQueries({ queryKey: fileKeys.all });
        void queryClient.invalidateQueries({ queryKey: importFolderKeys.all });
      }, FILE_EVENTS_THROTTLE_MS);
    };
    const onNetwork = (network: NetworkState) => update({ network });
    // One feed per protocol carries every kind of state (a ban, a back-off pause…): each kind is kept apart, so the
    // end of a pause does not hide a ban that still lasts.
    const byType = (state: AniDBState | undefined): AniDBStates => (state ? { [state.UpdateType]: state } : {});
    // Events sent before the connection are lost: the file lists and import folders read before the revision the
    // connection started at are asked for again (an answer read later is kept current by the events).
    let stopWaiting = () => undefined as void;
    const handlers: AggregateHandlers = {
      'Revision:OnConnected': (revision) => {
        stopWaiting();
        stopWaiting = refreshMissedEvents(queryClient, [fileKeys.all, importFolderKeys.all], revision);
      },
      // File lists and import folder sizes may have changed (the payloads are not needed).
      ...Object.fromEntries(FILE_EVENT_NAMES.map((event) => [`ShokoEvent:${event}`, onFileEvent])),
      // An import folder went offline or came back (our event): its badge, the dashboard notice and its files' state.
      'ShokoEvent:ImportFolderAvailabilityChanged': onFileEvent,
      'Queue:OnConnected': (queue) => update({ queue }),
      'Queue:QueueStateChanged': onQueueChanged,
      'Network:OnConnected': onNetwork,
      'Network:NetworkAvailabilityChanged': onNetwork,
      'AniDB:OnConnected': (states) => update({ anidbUdp: byType(states?.[0]), anidbHttp: byType(states?.[1]) }),
      'AniDB:AniDBUDPStateUpdate': (state) =>
        setState((previous) => ({ ...previous, anidbUdp: { ...previous.anidbUdp, ...byType(state) } })),
      'AniDB:AniDBHttpStateUpdate': (state) =>
        setState((previous) => ({ ...previous, anidbHttp: { ...previous.anidbHttp, ...byType(state) } })),
      'AVDump:OnConnected': (events) => setState((previous) => ({ ...previous, avdump: restoreAVDumpSessions(events) })),
      'AVDump:Event': (event) => {
        setState((previous) => ({ ...previous, avdump: applyAVDumpEvent(previous.avdump, event) }));
        const problem = avdumpProblem(event);
        if (problem) toast.error(problem, { toastId: `avdump-${event.SessionID ?? event.Type}` });
        // A finished dump changes File.AVDump of its files.
        if (event.Type === 'Success' || event.Type === 'Failure') void queryClient.invalidateQueries({ queryKey: fileKeys.all });
      },
    };

    // After a dropped connection everything the events keep current is asked for again, the queue items included.
    const unlisten = feed.listen({
      handlers,
      onConnected: (afterDrop) => {
        update({ connected: true });
        if (!afterDrop) return;
        void queryClient.invalidateQueries({ queryKey: importFolderKeys.all });
        void queryClient.invalidateQueries({ queryKey: fileKeys.all });
        void queryClient.invalidateQueries({ queryKey: queueKeys.items });
      },
      onDisconnected: () => update({ connected: false }),
    });

    return () => {
      unlisten();
      stopWaiting();
      clearTimeout(queueTimer);
      clearTimeout(fileEventsTimer);
      void feed.stop();
    };
  }, [queryClient]);

  return <AggregateContext.Provider value={state}>{children}</AggregateContext.Provider>;
}

/** The toast an AVDump event deserves, if any. */
function avdumpProblem(event: AVDumpEvent): string | null {
  switch (event.Type) {
    case 'Failure':
    case 'GenericException':
      return `AVDump failed! ${event.ErrorMessage ?? event.Message?.split('\n').at(-1) ?? ''}`.trim();
    case 'MissingApiKey':
      return 'AVDump failed! Missing AVDump API key (Settings › AniDB).';
    case 'InvalidCredentials':
      return 'AVDump failed! AniDB refused the user name or AVDump API key.';
    case 'Timeout':
      return 'AVDump failed! AniDB did not answer in time.';
    case 'InstallException':
      return 'AVDump failed! AVDump3 is not installed on the server.';
    default:
      return null;
  }
}

export function useAggregateState(): AggregateState {
  return useContext(AggregateContext);
}
