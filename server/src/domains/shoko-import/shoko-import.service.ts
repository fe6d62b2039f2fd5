/**
 * DESIGN — shoko-import domain: moving from Shoko Server. Reads a Shoko v5.x data folder (shoko-folder.ts), its SQLite
 * database through a private copy (shoko-database.ts: every query of Shoko's tables), maps each kind of row onto our
 * model (map-*.ts: pure mapping into an ImportPlan, every source row counted as imported or skipped with a reason,
 * import-report.ts), then writes the plan in one transaction (shoko-import.store.ts), copies the AniDB XML cache and
 * pictures, brings the maintained figures up to date and takes over Shoko's settings. A dry run stops after mapping.
 * Routes: shoko-import.routes.ts (first run only); the command `npm run import-shoko`: tools/import-shoko.ts.
 */
import { copyFile, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { SHOKO_IMPORT_PROGRESS_EVENT, type ShokoImportReport, type ShokoImportRequest, type ShokoImportStatus } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { ImageStore } from '../images/index.js';
import { ImportPlan } from './import-plan.js';
import { ImportReportBuilder } from './import-report.js';
import { mapAccounts } from './map-accounts.js';
import { mapAniDB } from './map-anidb.js';
import { mapCollection } from './map-collection.js';
import { emptyIds, type MapContext } from './map-context.js';
import { mapFilters, mapRenamers, mapTmdb, reportUnkept } from './map-extras.js';
import { mapFiles, mediaInfoOfImportedFiles } from './map-files.js';
import { decodeMediaBlobs } from './media-blob-pool.js';
import { mapSettings } from './map-settings.js';
import { mapUserData } from './map-user-data.js';
import { ShokoDatabase, ShokoSourceError } from './shoko-database.js';
import { animeDocuments, locateShokoFolder } from './shoko-folder.js';
import type { ShokoImportStore } from './shoko-import.store.js';
import { collectGarbage } from '../../shared/collect-garbage.js';

export { ShokoSourceError } from './shoko-database.js';

/** The import refuses before writing anything: the message says why (no Shoko folder, wrong version, not empty…). */
export class ShokoImportRefused extends Error {}

export interface ShokoImportSettings {
  readonly current: { FirstRun: boolean };
  adopt(values: Record<string, unknown>): Promise<void>;
  update(mutate: (s: { FirstRun: boolean }) => void): Promise<void>;
}

export interface ShokoImportDeps {
  store: ShokoImportStore;
  /** Our data directory: the AniDB cache, images and the kept reports go under it. */
  home: string;
  settings: ShokoImportSettings;
  logger: Logger;
  bus?: EventBus;
  /**
   * Builds the series search index of the imported collection (the import's writes send no change while it runs): the
   * first search right after a 100,000-file import spent 125 ms preparing the titles.
   */
  prepareSearch?: () => Promise<void>;
}

const JUST_COMPLETED_MS = 15 * 60_000;
/** Files copied side by side: one after another, 5,000 small XML files took 5 s. */
const COPIES_AT_ONCE = 16;

/** Moves the staged files to the same places under `home` (a rename each, same file system). */
async function placeStaged(staging: string, home: string, files: string[]): Promise<void> {
  for (const folder of new Set(files.map((file) => path.dirname(path.join(home, file))))) await mkdir(folder, { recursive: true });
  await inParallel(
    files.map((file) => () => rename(path.join(staging, file), path.join(home, file))),
    COPIES_AT_ONCE,
  );
}

async function inParallel(tasks: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
}

/** Progress is reported in hundredths: mapping, writing rows, copying, figures, settings. */
const PHASES = { read: [0, 20], write: [20, 85], copy: [85, 88], figures: [88, 98], settings: [98, 100] } as const;

export class ShokoImportService {
  private current: ShokoImportStatus = { State: 'Idle', Step: null, Done: 0, Total: 100, Report: null, Error: null };
  /** True from the start of an import's checks until its write has ended. */
  private running = false;
  private completedAt: number | null = null;

  constructor(private readonly deps: ShokoImportDeps) {}

  status(): ShokoImportStatus {
    return structuredClone(this.current);
  }

  /**
   * The first-run wizard that ran an import still reads its report after the server has started and before anyone
   * could log in: for a while after completing, the status stays open as it was during the first run.
   */
  justCompleted(now = Date.now()): boolean {
    return this.completedAt !== null && now - this.completedAt < JUST_COMPLETED_MS;
  }

  /** What an import would do, without writing anything. */
  async dryRun(request: ShokoImportRequest): Promise<ShokoImportReport> {
    return this.run(request, { dryRun: true });
  }

  /**
   * Checks and maps the folder (a refusal is thrown to the caller: not a Shoko folder, an unsupported version, a
   * folder to map, a database that is not empty), then writes in the background; progress and the result are in
   * `status()` and on the hub.
   */
  async start(request: ShokoImportRequest, onCompleted?: (report: ShokoImportReport) => void): Promise<void> {
    if (this.running) throw new ShokoImportRefused('An import is already running.');
    this.running = true;
    let prepared: Prepared;
    try {
      prepared = await this.prepare(request, { dryRun: false });
    } catch (error) {
      this.running = false;
      throw this.failed(error, false);
    }
    this.write(prepared)
      .then((report) => onCompleted?.(report))
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
      });
  }

  /** The whole import (or its dry run); throws ShokoImportRefused/ShokoSourceError for refusals, the database untouched. */
  async run(request: ShokoImportRequest, options: { dryRun: boolean }): Promise<ShokoImportReport> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(request, options);
    } catch (error) {
      throw this.failed(error, options.dryRun);
    }
    if (!options.dryRun) return this.write(prepared);
    await prepared.plan.fileMediaInfo;
    await prepared.shoko.close();
    return prepared.report.build(prepared.ctx.folder.root, prepared.shoko.schemaVersion, true, null);
  }

  /** Opens the folder and maps every kind into a plan; for a real import, refuses on blockers. */
  private async prepare(request: ShokoImportRequest, options: { dryRun: boolean }): Promise<Prepared> {
    // A dry run is an answer to its caller, not an import: it leaves the status (and the hub) alone.
    const step = (message: string, fraction: number) => {
      if (!options.dryRun) this.progress('Running', message, scale(PHASES.read, fraction));
    };
    step('Opening the Shoko data folder', 0);
    if (!options.dryRun) await this.checkTarget();
    const folder = await locateShokoFolder(request.Folder);
    const shoko = await ShokoDatabase.open(folder.databaseFile, path.join(this.deps.home, 'shoko-import'));
    try {
      const report = new ImportReportBuilder();
      const plan = new ImportPlan();
      const ctx: MapContext = {
        shoko,
        folder,
        plan,
        report,
        home: this.deps.home,
        pathMap: request.PathMap ?? [],
        ids: emptyIds(),
        now: new Date().toISOString(),
      };
      await this.map(ctx, step);
      if (!options.dryRun && report.blockers.length) throw new ShokoImportRefused(`The import cannot start: ${report.blockers.join(' ')}`);
      return { shoko, ctx, plan, report };
    } catch (error) {
      await shoko.close();
      throw error;
    }
  }

  private async write({ shoko, ctx, plan, report }: Prepared): Promise<ShokoImportReport> {
    const log = this.deps.logger;
    const folder = ctx.folder;
    let committed = false;
    // The cache files are copied beside our data while the rows are written, and put in place once they are committed.
    const staging = path.join(this.deps.home, 'shoko-import', `staging-${process.pid}-${Date.now()}`);
    let staged: Promise<string[]> = Promise.resolve([]);
    try {
      log.info(`Importing ${plan.rowCount} rows from Shoko Server (${folder.root}, schema ${shoko.schemaVersion})`);
      staged = this.stageFiles(plan, report, staging);
      staged.catch(() => undefined);
      await this.deps.store.write(plan, (table, written, total) =>
        this.progress('Running', `Writing ${table.replace(/_/g, ' ')}`, scale(PHASES.write, written / Math.max(1, total))),
      );
      committed = true;
      this.progress('Running', 'Placing the AniDB cache and pictures', PHASES.copy[0]);
      await placeStaged(staging, this.deps.home, await staged);
      await this.deps.store.refreshMaintained((message) => this.progress('Running', message, PHASES.figures[0]));
      if (this.deps.prepareSearch) {
        this.progress('Running', 'Preparing the series search', PHASES.figures[1]);
        // Left to the first search if it fails: the rows are written.
        await this.deps.prepareSearch().catch((error: unknown) => log.warn({ err: error }, 'Preparing the series search failed'));
      }
      plan.releaseRows();
      const heldBytes = process.memoryUsage().heapUsed;
      if (collectGarbage())
        log.info(`Released the import's rows: heap ${megabytes(heldBytes)} → ${megabytes(process.memoryUsage().heapUsed)} MB`);
      this.progress('Running', 'Taking over the settings', PHASES.settings[0]);
      await this.deps.settings.adopt(plan.settings);
      if (this.deps.settings.current.FirstRun)
        await this.deps.settings.update((s) => {
          s.FirstRun = false;
        });
      const savedAs = path.join(this.deps.home, 'shoko-import', `report-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
      const result = report.build(folder.root, shoko.schemaVersion, false, savedAs);
      await mkdir(path.dirname(savedAs), { recursive: true });
      await writeFile(savedAs, `${JSON.stringify(result, null, 2)}\n`);
      log.info(`Imported from Shoko Server: ${result.Kinds.map((k) => `${k.Imported} ${k.Kind.toLowerCase()}`).join(', ')}`);
      this.current = { State: 'Completed', Step: null, Done: 100, Total: 100, Report: result, Error: null };
      this.completedAt = Date.now();
      this.announce();
      return result;
    } catch (error) {
      throw this.failed(error, false, committed);
    } finally {
      await staged.catch(() => undefined);
      await rm(staging, { recursive: true, force: true });
      await shoko.close();
    }
  }

  /** Records a failure in the status (a dry run just ends) and gives the error to throw. */
  private failed(error: unknown, dryRun: boolean, committed = false): Error {
    const message = error instanceof Error ? error.message : String(error);
    const refused = error instanceof ShokoSourceError || error instanceof ShokoImportRefused;
    if (!dryRun && !refused) this.deps.logger.error({ err: error }, `Importing from Shoko Server failed: ${message}`);
    this.current =
      dryRun || refused
        ? { State: 'Idle', Step: null, Done: 0, Total: 100, Report: null, Error: null }
        : { State: 'Failed', Step: null, Done: 0, Total: 100, Report: null, Error: message };
    this.announce();
    if (refused) return error as Error;
    return new Error(
      committed
        ? `The Shoko data was imported, but finishing the import failed (restart the server to complete it): ${message}`
        : `Importing from Shoko Server failed, nothing was changed: ${message}`,
    );
  }

  private async checkTarget(): Promise<void> {
    const occupied = await this.deps.store.nonEmptyTables();
    if (occupied.length)
      throw new ShokoImportRefused(
        `A Shoko Server can only be imported into an empty database; this one already has ${occupied.join(', ').replace(/_/g, ' ')}. Start with a new data folder (SHOKO_HOME) or database.`,
      );
  }

  private async map(ctx: MapContext, step: (message: string, fraction: number) => void): Promise<void> {
    step('Reading the AniDB cache', 0.05);
    // The files' media info is decoded on worker threads while the main thread maps the other kinds and writes.
    const media = decodeMediaBlobs(
      ctx.shoko
        .all('VideoLocal', ['VideoLocalID', 'MediaVersion', 'MediaBlob'])
        .filter((row) => row.MediaBlob)
        .map((row) => ({ id: Number(row.VideoLocalID), version: Number(row.MediaVersion ?? 0), blob: row.MediaBlob as Uint8Array })),
    );
    ctx.plan.fileMediaInfo = media.then((decoded) => mediaInfoOfImportedFiles(ctx, decoded));
    ctx.plan.fileMediaInfo.catch(() => undefined);
    const docs = await animeDocuments(ctx.folder.animeHttpDir);
    step('Reading AniDB data', 0.1);
    mapAniDB(ctx, docs);
    step('Reading users and API keys', 0.4);
    await mapAccounts(ctx);
    step('Reading import folders and files', 0.5);
    mapFiles(ctx);
    step('Reading groups, series and episodes', 0.7);
    mapCollection(ctx, docs);
    step('Reading watch states and votes', 0.8);
    mapUserData(ctx);
    step('Reading filters, renamers and TMDB links', 0.9);
    mapFilters(ctx);
    mapRenamers(ctx);
    mapTmdb(ctx);
    reportUnkept(ctx);
    mapSettings(ctx);
  }

  /**
   * Copies the AniDB XML cache (keeping each file's age) and the cached pictures under `staging`, laid out as in our data
   * directory; answers the paths written, relative to it. A file that cannot be copied is noted, not fatal.
   */
  private async stageFiles(plan: ImportPlan, report: ImportReportBuilder, staging: string): Promise<string[]> {
    const failures: string[] = [];
    const written: string[] = [];
    const images = new ImageStore(staging);
    const attempt = async (from: string, copy: () => Promise<string>) => {
      try {
        written.push(path.relative(staging, await copy()));
      } catch (error) {
        failures.push(`${from}: ${(error as Error).message}`);
      }
    };
    for (const folder of new Set(plan.copies.map((c) => path.dirname(path.join(staging, c.to))))) await mkdir(folder, { recursive: true });
    await inParallel(
      [
        ...plan.copies.map(
          (copy) => () =>
            attempt(copy.from, async () => {
              const target = path.join(staging, copy.to);
              await copyFile(copy.from, target);
              const info = await stat(copy.from);
              await utimes(target, info.atime, info.mtime);
              return target;
            }),
        ),
        ...plan.images.map(
          (image) => () => attempt(image.from, async () => images.save(image.source, image.type, image.id, await readFile(image.from))),
        ),
      ],
      COPIES_AT_ONCE,
    );
    if (failures.length)
      report.note(
        `${failures.length} cached file(s) could not be copied and will be downloaded again when needed, e.g. ${failures.slice(0, 3).join('; ')}`,
      );
    return written;
  }

  private progress(state: ShokoImportStatus['State'], step: string | null, done: number): void {
    this.current = { ...this.current, State: state, Step: step, Done: Math.round(done), Total: 100, Report: null, Error: null };
    this.announce();
  }

  private announce(): void {
    this.deps.bus?.emit('shoko', { event: SHOKO_IMPORT_PROGRESS_EVENT, payload: this.status() });
  }
}

interface Prepared {
  shoko: ShokoDatabase;
  ctx: MapContext;
  plan: ImportPlan;
  report: ImportReportBuilder;
}

const scale = ([from, to]: readonly [number, number], fraction: number) => from + (to - from) * Math.min(1, Math.max(0, fraction));

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);
