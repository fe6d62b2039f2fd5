/**
 * Test child process for domains/renamer/relocation-crash.api.test.ts: the real server over an existing home, with a pause between
 * the steps of every move so the parent can SIGKILL it in the middle of a batch. Not part of the shipped server.
 */
import { readConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { EventBus } from '../events/bus.js';
import { LogService } from '../domains/logs/log.service.js';
import { createServices } from '../services.js';
import { buildApp } from '../app.js';

const config = { ...readConfig({ ...process.env, SHOKO_PORT: '8111' }), port: 0 };
const logs = LogService.create({ home: config.home, bus: new EventBus(), stdout: false });
const db = openDatabase({ home: config.home, databaseUrl: config.databaseUrl });
const services = await createServices(config, logs, db, new EventBus());
const { app } = await buildApp(services, logs.logger);
const pause = Number(process.env.STEP_PAUSE_MS ?? 5);
services.renamer.relocator.stepHook = () => new Promise((resolve) => setTimeout(resolve, pause));
services.init.startServer();
await services.init.waitForStartup();
await app.listen({ port: config.port, host: '127.0.0.1' });
process.stdout.write(`listening ${app.server.address() && (app.server.address() as { port: number }).port}\n`);
