import { dbFaultOf } from './db-faults.js';

/**
 * The last line of defence of a server on PostgreSQL: an 'error' event of a database connection that nothing listened
 * for (the server restarted under an idle or checked-out client) must not end the process; the pool replaces the
 * connection. Only such errors are kept from ending it: any other uncaught error is reported and ends the process
 * with code 1, as Node does without a handler, so programming errors still surface.
 */
export function survivesLostDatabaseConnections(warn: (message: string) => void): void {
  process.on('uncaughtException', (error, origin) => {
    if (dbFaultOf(error) === 'connection-lost') {
      warn(`A database connection was lost (${error.message}); the server carries on and reconnects`);
      return;
    }
    process.stderr.write(`${origin === 'unhandledRejection' ? 'Unhandled rejection' : 'Uncaught exception'}: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
