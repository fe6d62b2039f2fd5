/**
 * What kind of passing fault of the database or its disk an error is: a full disk, a lost connection (PostgreSQL
 * restarted or stopped, the network dropped) or a lock that timed out. Each goes away without anyone changing the
 * data, so work that met it is worth trying again later; any other error is the work's own.
 */
export type DbFault = 'disk-full' | 'connection-lost' | 'busy';

/** PostgreSQL SQLSTATE codes of a connection that ended or could not be made (class 08, 57P01–57P03). */
const PG_CONNECTION_CODES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03']);
/** PostgreSQL: a lock not granted in time, a deadlock broken, a serialization failure. */
const PG_BUSY_CODES = new Set(['55P03', '40P01', '40001']);
/** PostgreSQL: disk_full, out_of_memory's sibling insufficient_resources. */
const PG_DISK_FULL_CODES = new Set(['53100']);
/** Socket errors of a connection to the database server. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN']);
/** pg's own messages for a connection that ended under it (its errors carry no code then). */
const PG_LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection due to administrator command',
  'the database system is shutting down',
  'the database system is starting up',
  'timeout exceeded when trying to connect',
];

function faultOfOne(error: { code?: unknown; message?: unknown }, outermost: boolean): DbFault | null {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || PG_DISK_FULL_CODES.has(code)) return 'disk-full';
  // SQLite reports a write the file system refused as an I/O error of the write (ENOSPC under the WAL, for one).
  if (code.startsWith('SQLITE_IOERR')) return 'disk-full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || PG_BUSY_CODES.has(code)) return 'busy';
  if (PG_CONNECTION_CODES.has(code)) return 'connection-lost';
  // A socket error wrapped in another error is some HTTP client's (fetch's "fetch failed"); pg throws them bare.
  if (outermost && SOCKET_CODES.has(code)) return 'connection-lost';
  if (PG_LOST_MESSAGES.some((text) => message.startsWith(text))) return 'connection-lost';
  return null;
}

/** The passing fault `error` (or an error it wraps as its `cause`) is, or null for any other error. */
export function dbFaultOf(error: unknown): DbFault | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const fault = faultOfOne(current as { code?: unknown; message?: unknown }, depth === 0);
    if (fault) return fault;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Whether `error` (or an error it wraps) is pg's own word for a lost connection: a PostgreSQL SQLSTATE of a connection
 * ended or refused, or one of pg's messages for it. Only the server's database speaks pg here, so unlike a bare socket
 * error (which any client may throw) this is the database's fault even when it answers again by the time it is asked.
 */
export function isPgConnectionLoss(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && PG_CONNECTION_CODES.has(code)) return true;
    if (typeof message === 'string' && PG_LOST_MESSAGES.some((text) => message.startsWith(text))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export const isDiskFullError = (error: unknown): boolean => dbFaultOf(error) === 'disk-full';

export const isTransientDbError = (error: unknown): boolean => dbFaultOf(error) !== null;

/** What the console and the log say about a fault. */
export function describeDbFault(fault: DbFault): string {
  switch (fault) {
    case 'disk-full':
      return 'The data disk is full: nothing can be written until space is freed';
    case 'connection-lost':
      return 'The database connection was lost (the database server restarted or is unreachable)';
    case 'busy':
      return 'The database is busy: a lock was not granted in time';
  }
}

/**
 * Upkeep that readers do before they read (bringing maintained figures up to date, folding appended counts), which
 * leaves its marks in place when it fails: when the database cannot take the writes now (a full disk, a lost
 * connection, a lock not granted) the figures stay as they are for a later caller, and the read goes on with them
 * rather than failing. Inside a caller's transaction the fault is the caller's (SQLite may have rolled the whole
 * transaction back), and any other error is thrown as well.
 */
export async function upkeepUnlessDbFault<T>(db: { isTransaction: boolean }, upkeep: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await upkeep();
  } catch (error) {
    if (db.isTransaction || !isTransientDbError(error)) throw error;
    return fallback;
  }
}
