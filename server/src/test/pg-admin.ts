import pg from 'pg';

/**
 * A connected client for a test's own statements (creating and dropping databases). It listens for 'error': a
 * cluster restarted or stopped under it (the fault tests do that) must not end the test run with an unhandled event.
 */
export async function connectPg(connectionString: string | undefined): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
