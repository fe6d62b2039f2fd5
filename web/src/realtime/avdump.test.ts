import { describe, expect, it } from 'vitest';
import { applyAVDumpEvent, avdumpButtonState, restoreAVDumpSessions } from './avdump';

const file = (ID: number, LastDumpedAt: string | null = null) => ({ ID, AVDump: { LastDumpedAt } });

describe('AVDump sessions', () => {
  it('follows a session from start to success or failure, progress never going back', () => {
    let sessions = applyAVDumpEvent({}, { Type: 'Started', SessionID: 1, VideoIDs: [5, 6] });
    sessions = applyAVDumpEvent(sessions, { Type: 'Progress', SessionID: 1, Progress: 60 });
    sessions = applyAVDumpEvent(sessions, { Type: 'Progress', SessionID: 1, Progress: 40 });
    expect(sessions[1]).toEqual({ fileIds: [5, 6], status: 'Running', progress: 60 });
    expect(applyAVDumpEvent(sessions, { Type: 'Success', SessionID: 1, VideoIDs: [5, 6] })[1].status).toBe('Success');
    expect(applyAVDumpEvent(sessions, { Type: 'GenericException', SessionID: 1 })[1]).toEqual({
      fileIds: [5, 6],
      status: 'Failed',
      progress: 100,
    });
    expect(restoreAVDumpSessions([{ Type: 'Restore', SessionID: 3, VideoIDs: [9], Progress: 20 }])).toEqual({
      3: { fileIds: [9], status: 'Running', progress: 20 },
    });
  });

  it('offers AVDump Files, then Dumping Files..., then Finish AVDump', () => {
    expect(avdumpButtonState([file(1), file(2, '2026-01-01')], {})).toEqual({ label: 'AVDump Files', toDump: [1] });
    const running = applyAVDumpEvent({}, { Type: 'Started', SessionID: 1, VideoIDs: [1] });
    expect(avdumpButtonState([file(1), file(2, '2026-01-01')], running).label).toBe('Dumping Files...');
    const done = applyAVDumpEvent(running, { Type: 'Success', SessionID: 1, VideoIDs: [1] });
    expect(avdumpButtonState([file(1), file(2, '2026-01-01')], done)).toEqual({ label: 'Finish AVDump', toDump: [] });
    expect(avdumpButtonState([], {}).label).toBe('AVDump Files');
  });
});
