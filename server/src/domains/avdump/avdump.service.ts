/**
 * DESIGN — avdump domain: AVDump sessions (`/api/v3/AVDump/*`, `File/{id}/AVDump`, contract files.md §9) over an
 * AVDump3 tool the owner installed (avdump-tool.ts). Sessions run as jobs on the queue, their output becomes
 * `AVDump:Event` hub events, and each fully successful dump is recorded per file. Routes: avdump.routes.ts; SQL:
 * avdump.store.ts; files and locations are read through the files domain's FilesService.
 */
import path from 'node:path';
import type { AVDumpEvent, AVDumpInfo } from '@shoko-ts/contract';
import type { Logger } from 'pino';
import type { EventBus } from '../../events/bus.js';
import { FieldErrorCollector } from '../../http/problem.js';
import { JobPriority, PermanentJobError, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { SettingsService } from '../settings/index.js';
import type { FilesService } from '../files/index.js';
import type { AVDumpStore } from './avdump.store.js';
import { avdumpVersion, locateAVDump, parseAVDumpLine, runAVDump, type AVDumpTool } from './avdump-tool.js';

interface Session {
  id: number;
  fileIds: number[];
  progress: number;
  succeeded: number;
  failed: number;
  pending: number;
  ed2ks: string[];
  startedAt: string;
}

export const NOT_INSTALLED =
  'AVDump3 is not installed on this server: put avdump3 on the PATH or set SHOKO_AVDUMP to its path, then try again.';

/**
 * AVDump sessions: the tool is run over a set of files, its output is turned into hub events, and a fully successful
 * dump is recorded per file. A file is in at most one running session.
 */
export class AVDumpService {
  private readonly sessions = new Map<number, Session>();
  private nextSessionId = 1;
  private readonly job: JobDefinition<{ fileIds: number[] }>;
  private version: { tool: string; value: string | null } | null = null;

  constructor(
    private readonly deps: {
      store: AVDumpStore;
      files: Pick<FilesService, 'existingIds' | 'locationsOf' | 'exists'>;
      settings: SettingsService;
      bus: EventBus;
      queue: QueueService;
      logger: Logger;
      locate?: () => AVDumpTool | null;
    },
  ) {
    this.job = {
      kind: 'AVDumpFilesJob',
      type: 'AVDump Files',
      title: 'Dumping Files with AVDump',
      group: 'AniDB',
      priority: JobPriority.Lookup,
      key: (p) => p.fileIds.join(','),
      details: (p) => ({ FileIDs: p.fileIds.join(', ') }),
      run: async (p, context) => {
        const outcome = await this.dump(p.fileIds, context.signal);
        if (outcome !== 'success' && outcome !== 'skipped') throw new PermanentJobError(`AVDump failed: ${outcome}`);
      },
    };
    deps.queue.register(this.job);
  }

  private tool(): AVDumpTool | null {
    return (this.deps.locate ?? locateAVDump)();
  }

  /** A1: whether the tool is there and its version; we never download one, so nothing is "expected". */
  async status(): Promise<{ Installed: boolean; InstalledVersion: string | null; ExpectedVersion: string | null }> {
    const tool = this.tool();
    const version = tool ? await this.versionOf(tool) : null;
    return { Installed: !!tool, InstalledVersion: version, ExpectedVersion: version };
  }

  private async versionOf(tool: AVDumpTool): Promise<string | null> {
    const key = [tool.command, ...tool.prefix].join(' ');
    if (this.version?.tool !== key) this.version = { tool: key, value: await avdumpVersion(tool) };
    return this.version.value;
  }

  /** Checks a request to dump files; every problem is reported at once (A3, F30). Returns the files' paths. */
  async validate(
    fileIds: number[],
    messages: { unknown(id: number): [string, string]; noPath(id: number): [string, string] },
  ): Promise<string[]> {
    const errors = new FieldErrorCollector();
    if (!this.deps.settings.current.AniDb.AVDumpKey?.trim()) errors.add('Settings', 'Missing AVDump API key');
    if (!this.tool()) errors.add('AVDump', NOT_INSTALLED);
    const files = await this.deps.files.existingIds(fileIds);
    const locations = await this.deps.files.locationsOf(fileIds);
    const paths: string[] = [];
    for (const id of fileIds) {
      if (!files.has(id)) {
        errors.add(...messages.unknown(id));
        continue;
      }
      const location = locations.find((l) => l.file_id === id && l.is_accessible);
      if (!location) errors.add(...messages.noPath(id));
      else paths.push(path.join(location.folder_path, location.relative_path));
    }
    errors.throwIfAny();
    return paths;
  }

  async fileExists(id: number): Promise<boolean> {
    return this.deps.files.exists(id);
  }

  /** A3: one queued "AVDump Files" job for all the files, ahead of other lookups. */
  async queue(fileIds: number[]): Promise<void> {
    await this.deps.queue.enqueue(this.job, { fileIds: [...new Set(fileIds)] }, { priority: JobPriority.Scan });
  }

  /** OnConnected: one Restore event per running session. */
  restoreEvents(): AVDumpEvent[] {
    return [...this.sessions.values()].map((s) => ({
      Type: 'Restore',
      SessionID: s.id,
      VideoIDs: s.fileIds,
      Progress: s.progress,
      SucceededCreqCount: s.succeeded,
      FailedCreqCount: s.failed,
      PendingCreqCount: s.pending,
      ed2ks: s.ed2ks,
      StartedAt: s.startedAt,
    }));
  }

  async infoOf(fileIds: number[]): Promise<Map<number, AVDumpInfo>> {
    const rows = await this.deps.store.lastDumps(fileIds);
    const last = new Map(rows.map((r) => [r.file_id, r]));
    const running = new Map<number, Session>();
    for (const session of this.sessions.values()) for (const id of session.fileIds) running.set(id, session);
    const result = new Map<number, AVDumpInfo>();
    for (const id of fileIds) {
      const row = last.get(id);
      const info: AVDumpInfo = { Status: null, LastDumpedAt: row?.last_dumped_at ?? null, LastVersion: row?.last_version ?? null };
      const session = running.get(id);
      if (session) {
        Object.assign(info, {
          Status: 'Running',
          Progress: session.progress,
          SucceededCreqCount: session.succeeded,
          FailedCreqCount: session.failed,
          PendingCreqCount: session.pending,
          StartedAt: session.startedAt,
        });
      }
      result.set(id, info);
    }
    return result;
  }

  private emit(event: AVDumpEvent) {
    this.deps.bus.emit('avdump', event);
  }

  /**
   * Runs one session over the files. Returns 'success', 'skipped' (a file is already being dumped) or the reason it
   * failed.
   */
  async dump(fileIds: number[], signal?: AbortSignal): Promise<string> {
    const busy = fileIds.filter((id) => [...this.sessions.values()].some((s) => s.fileIds.includes(id)));
    if (busy.length) {
      this.deps.logger.warn(`AVDump: file(s) ${busy.join(', ')} are already being dumped; not starting another session for them.`);
      return 'skipped';
    }
    const settings = this.deps.settings.current.AniDb;
    if (!settings.AVDumpKey?.trim()) {
      this.emit({ Type: 'MissingApiKey' });
      return 'Missing AVDump API key';
    }
    const tool = this.tool();
    if (!tool) {
      this.emit({ Type: 'InstallException' });
      return NOT_INSTALLED;
    }
    const locations = await this.deps.files.locationsOf(fileIds);
    const paths = fileIds
      .map((id) => locations.find((l) => l.file_id === id && l.is_accessible))
      .filter((l) => !!l)
      .map((l) => path.join(l.folder_path, l.relative_path));
    if (paths.length !== fileIds.length) return 'Unable to find a valid path for every file.';

    const firstSession = this.sessions.size === 0;
    const session: Session = {
      id: this.nextSessionId++,
      fileIds,
      progress: 0,
      succeeded: 0,
      failed: 0,
      pending: 0,
      ed2ks: [],
      startedAt: new Date().toISOString(),
    };
    this.sessions.set(session.id, session);
    this.emit({
      Type: 'Started',
      SessionID: session.id,
      VideoIDs: fileIds,
      Progress: 0,
      SucceededCreqCount: 0,
      FailedCreqCount: 0,
      PendingCreqCount: 0,
      StartedAt: session.startedAt,
    });
    const stdout: string[] = [];
    const stderr: string[] = [];
    try {
      const exitCode = await runAVDump(tool, {
        username: this.deps.settings.current.AniDb.Username ?? '',
        apiKey: settings.AVDumpKey.trim(),
        localPort: firstSession ? settings.AVDumpClientPort : 0,
        creqTimeout: settings.AVDump.CreqTimeout,
        creqMaxRetries: settings.AVDump.CreqMaxRetries,
        concurrency: settings.AVDump.MaxConcurrency,
        files: paths,
        signal,
        onStdout: (line) => this.onStdout(session, line, stdout),
        onStderr: (line) => {
          stderr.push(line);
          this.emit({ Type: 'Error', SessionID: session.id, Message: line });
        },
      });
      const endedAt = new Date().toISOString();
      const succeeded =
        exitCode === 0 &&
        !stderr.length &&
        session.ed2ks.length === fileIds.length &&
        session.succeeded === fileIds.length &&
        !session.failed &&
        !session.pending;
      const common = {
        SessionID: session.id,
        VideoIDs: fileIds,
        Progress: session.progress,
        Message: stdout.join('\n'),
        StartedAt: session.startedAt,
        EndedAt: endedAt,
      };
      const errorMessage = stderr.length ? { ErrorMessage: stderr.join('\n') } : {};
      if (succeeded) {
        const version = (await this.versionOf(tool)) ?? 'unknown';
        for (const fileId of fileIds) await this.deps.store.recordDump(fileId, endedAt, version);
        this.emit({ Type: 'Success', ...common, ed2ks: session.ed2ks, ...errorMessage });
        return 'success';
      }
      this.emit({
        Type: 'Failure',
        ...common,
        SucceededCreqCount: session.succeeded,
        FailedCreqCount: session.failed,
        PendingCreqCount: session.pending,
        ...errorMessage,
      });
      return stderr[0] ?? (exitCode === null ? 'stopped' : `AniDB accepted ${session.succeeded} of ${fileIds.length} file report(s).`);
    } catch (error) {
      const message = `AVDump could not be run: ${(error as Error).message}`;
      this.deps.logger.warn(message);
      this.emit({
        Type: 'GenericException',
        SessionID: session.id,
        Message: message,
        StartedAt: session.startedAt,
        EndedAt: new Date().toISOString(),
      });
      return message;
    } finally {
      this.sessions.delete(session.id);
    }
  }

  private onStdout(session: Session, line: string, stdout: string[]) {
    const parsed = parseAVDumpLine(line);
    if (parsed.kind !== 'ignored') stdout.push(line.trim());
    switch (parsed.kind) {
      case 'progress':
        if (parsed.percent > session.progress) {
          session.progress = parsed.percent;
          this.emit({ Type: 'Progress', SessionID: session.id, Progress: session.progress });
        }
        break;
      case 'creqs':
        Object.assign(session, { succeeded: parsed.done, failed: parsed.failed, pending: parsed.pending });
        this.emit({
          Type: 'CreqUpdate',
          SessionID: session.id,
          SucceededCreqCount: parsed.done,
          FailedCreqCount: parsed.failed,
          PendingCreqCount: parsed.pending,
        });
        break;
      case 'ed2k':
        session.ed2ks.push(parsed.link);
        this.emit({ Type: 'ED2KLink', SessionID: session.id, Message: parsed.link });
        break;
      case 'invalid-credentials':
        this.emit({ Type: 'InvalidCredentials' });
        break;
      case 'timeout':
        this.emit({ Type: 'Timeout' });
        break;
      case 'message':
        this.emit({ Type: 'Message', SessionID: session.id, Message: parsed.text });
        break;
    }
  }
}
