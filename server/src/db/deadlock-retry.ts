/** PostgreSQL's error code for the transaction it failed to break a deadlock. */
const DEADLOCK = '40P01';

/**
 * Runs a transaction again when PostgreSQL failed it to break a deadlock (a bulk watch-state change and an import can
 * lock the same episodes in opposite orders since migration 0047), up to `attempts` times; any other error is thrown
 * at once. The work must be the whole transaction, so a retry starts from nothing.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || (error as { code?: unknown } | null)?.code !== DEADLOCK) throw error;
    }
  }
}
