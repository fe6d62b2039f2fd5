import type { AVDumpEvent } from '@shoko-ts/contract';

export interface AVDumpSession {
  fileIds: number[];
  status: 'Running' | 'Success' | 'Failed';
  progress: number;
}

export type AVDumpSessions = Readonly<Record<number, AVDumpSession>>;

/** The sessions the server reports as running when the hub connects (Restore events) replace what was known. */
export function restoreAVDumpSessions(events: AVDumpEvent[] | null | undefined): AVDumpSessions {
  const sessions: Record<number, AVDumpSession> = {};
  for (const event of events ?? []) {
    if (event.SessionID === undefined) continue;
    sessions[event.SessionID] = { fileIds: event.VideoIDs ?? [], status: 'Running', progress: event.Progress ?? 0 };
  }
  return sessions;
}

export function applyAVDumpEvent(sessions: AVDumpSessions, event: AVDumpEvent): AVDumpSessions {
  const id = event.SessionID;
  if (id === undefined) return sessions;
  const known = sessions[id];
  switch (event.Type) {
    case 'Started':
      return { ...sessions, [id]: { fileIds: event.VideoIDs ?? [], status: 'Running', progress: 0 } };
    case 'Progress':
      return known ? { ...sessions, [id]: { ...known, progress: Math.max(known.progress, event.Progress ?? 0) } } : sessions;
    case 'Success':
      return { ...sessions, [id]: { fileIds: event.VideoIDs ?? known?.fileIds ?? [], status: 'Success', progress: 100 } };
    case 'Failure':
    case 'GenericException':
      return { ...sessions, [id]: { fileIds: event.VideoIDs ?? known?.fileIds ?? [], status: 'Failed', progress: 100 } };
    default:
      return sessions;
  }
}

/** Ids of files in a running session. */
export function filesBeingDumped(sessions: AVDumpSessions): Set<number> {
  return new Set(Object.values(sessions).flatMap((s) => (s.status === 'Running' ? s.fileIds : [])));
}

/** What the AVDump button offers for a selection (SPEC: 'AVDump Files' → 'Dumping Files...' → 'Finish AVDump'). */
export function avdumpButtonState(
  files: ReadonlyArray<{ ID: number; AVDump: { LastDumpedAt: string | null } }>,
  sessions: AVDumpSessions,
): { label: 'AVDump Files' | 'Dumping Files...' | 'Finish AVDump'; toDump: number[] } {
  const running = filesBeingDumped(sessions);
  const dumpedNow = new Set(Object.values(sessions).flatMap((s) => (s.status === 'Success' ? s.fileIds : [])));
  const dumped = (f: { ID: number; AVDump: { LastDumpedAt: string | null } }) => !!f.AVDump.LastDumpedAt || dumpedNow.has(f.ID);
  if (files.some((f) => running.has(f.ID))) return { label: 'Dumping Files...', toDump: [] };
  if (files.length && files.every(dumped)) return { label: 'Finish AVDump', toDump: [] };
  return { label: 'AVDump Files', toDump: files.filter((f) => !dumped(f)).map((f) => f.ID) };
}
