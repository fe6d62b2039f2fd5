import { readConfig } from './config.js';
import { openDatabase, WARM_PLAN } from './db/database.js';
import { survivesLostDatabaseConnections } from './db/connection-guard.js';
import { EventBus } from './events/bus.js';
import { LogService } from './domains/logs/index.js';
import { createServices } from './services.js';
import { buildApp } from './app.js';
import { applyPendingRestore } from './domains/backup/index.js';
import { widenHeapGrowth } from './shared/heap-growth.js';

/** read config → pending restore → open db → migrate → build app → listen; Ctrl-C / SIGTERM stop cleanly. */
async function main() {
  // Set already by the built entry (launch.ts); here for a start from the sources.
  widenHeapGrowth();
  const config = readConfig();
  const bus = new EventBus();
  const logs = LogService.create({ home: config.home, bus, stdout: true });
  const log = logs.logger.child({ name: 'Server' });
  survivesLostDatabaseConnections((message) => log.warn(message));

  // A restore the console scheduled replaces the database before anything opens it.
  await applyPendingRestore({ home: config.home, databaseUrl: config.databaseUrl }, logs.logger.child({ name: 'Backup' }));
  // A running server keeps its PostgreSQL connections through ten quiet minutes (see openDatabase).
  const db = openDatabase({ home: config.home, databaseUrl: config.databaseUrl, idleConnectionMs: 10 * 60_000 });
  log.info(`Data directory: ${config.home}`);
  log.info(`Database: ${db.description}`);
  const services = await createServices(config, logs, db, bus);
  // Once started, as many connections as the widest page runs queries side by side (Dashboard/Stats: five), each
  // having read the collection's maintained tables once; SQLite's file read into the system's cache (see warmUp).
  // Not after a Shoko import that just wrote and read the whole collection: there the warm-up only holds connections
  // and the CPU while the first visits come (a start on the imported 100,000 files, PostgreSQL: Dashboard/Stats at +1.5 s
  // 60-310 ms with it, 22-145 without).
  services.init.whenStarted(() => {
    if (!services.shokoImport.justCompleted()) void db.warmUp(WARM_PLAN).catch(() => undefined);
  });
  const { app, close } = await buildApp(services, logs.logger);

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  log.info(`Web console: http://${shownHost}:${config.port}${config.basePath ?? ''}/webui`);

  // A configured server starts by itself; a fresh one waits for the first-run wizard.
  if (services.state.current !== 'Failed' && !services.settings.current.FirstRun) services.init.startServer();

  // Graceful shutdown: HTTP and hubs close, running jobs end or go back to the queue (the queue settles every row),
  // then the database closes; exit code 0. A shutdown that fails or hangs past 30 s exits with 1.
  let stopping = false;
  const stop = async (signal: string) => {
    // `npm start` under a terminal passes Ctrl-C on as well: a repeated signal is the same request.
    if (stopping) return;
    stopping = true;
    log.info(`Received ${signal}, shutting down`);
    const force = setTimeout(() => {
      log.error('Shutting down took longer than 30 s, exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    let exitCode = 0;
    try {
      await close();
      await services.stopBackground();
      await db.close();
      log.info('Shut down cleanly');
    } catch (error) {
      exitCode = 1;
      log.error({ err: error }, 'Shutting down failed');
    }
    await logs.close().catch(() => undefined);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error('shoko-ts failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
