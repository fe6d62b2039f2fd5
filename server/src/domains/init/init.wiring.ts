import type { Logger } from 'pino';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import type { DataDisk } from '../../db/data-disk.js';
import type { Db } from '../../db/database.js';
import { migrateToLatest, pendingMigrations, type MigrationModule } from '../../db/migrate.js';
import { HealthService } from './health.service.js';
import { HealthStore } from './health.store.js';
import { InitService, type StartupStep } from './init.service.js';
import type { ServerStateService } from './server-state.js';

type InitParameters = ConstructorParameters<typeof InitService>;

export interface InitDomain {
  init: InitService;
  /** `GET /healthz`. */
  health: HealthService;
  /** Brings the database to the latest migration (once; a backup is taken first when migrations are pending). */
  migrate(): Promise<void>;
}

/**
 * Builds the start of the server: the database migration (the first startup step, and run at boot), the other startup
 * steps in their order, and the health report.
 */
export function createInitDomain(deps: {
  db: Db;
  state: ServerStateService;
  users: InitParameters[1];
  settings: InitParameters[2];
  logger: Logger;
  /** The backup taken before pending migrations run. */
  backups: { beforeMigrating(pending: string[]): Promise<unknown> };
  /** Tests append migrations (a broken one proves that a failure rolls back and is reported). */
  extraMigrations?: Record<string, MigrationModule>;
  /** What starting does after the migration, in order. */
  steps: StartupStep[];
  afterStart: InitParameters[5];
  queueState: ConstructorParameters<typeof HealthService>[0]['queueState'];
  dataDisk: DataDisk;
}): InitDomain {
  const { db, logger } = deps;
  let migrated = false;
  const migrate = async () => {
    if (migrated) return;
    const migrationOptions = { extra: deps.extraMigrations };
    await deps.backups.beforeMigrating(await pendingMigrations(db, migrationOptions));
    const applied = await migrateToLatest(db, migrationOptions);
    if (applied.length) logger.child({ name: 'Database' }).info(`Applied migrations: ${applied.join(', ')}`);
    // A new migration, a crash or a bulk import leaves series marked: compute them now rather than on the first visit.
    const refreshed = await refreshSeriesAggregates(db.kysely, db.dialect);
    if (refreshed) logger.child({ name: 'Database' }).info(`Computed the aggregates of ${refreshed} series`);
    migrated = true;
  };
  const init = new InitService(
    deps.state,
    deps.users,
    deps.settings,
    [{ message: 'Setting up database...', run: migrate }, ...deps.steps],
    logger.child({ name: 'Init' }),
    deps.afterStart,
  );
  const health = new HealthService({
    store: new HealthStore(db.kysely),
    state: deps.state,
    databaseKind: db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
    queueState: deps.queueState,
    dataDisk: deps.dataDisk,
  });
  return { init, health, migrate };
}
