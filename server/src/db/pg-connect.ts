import type pg from 'pg';

/**
 * pg's Client with a bound on making its connection. pg waits without end, so a database host that went away without
 * a word (powered off, its network gone: nothing refuses the connection) would hold every request, `/healthz` and the
 * queue's retries until the system gave up on the TCP connect, minutes later. A connection not made in time fails as
 * a lost one ("Connection terminated: …"), which requests answer with a 503 and the queue waits out. The pool's own
 * connectionTimeoutMillis is no substitute: it would also fail requests that only wait for a free connection under load.
 */
export function clientWithConnectTimeout(loaded: typeof pg, timeoutMs: number): typeof pg.Client {
  const explain = (error: Error) =>
    error.message === 'timeout expired'
      ? new Error(`Connection terminated: the database server did not answer within ${timeoutMs / 1000} s`, { cause: error })
      : error;
  return class ClientWithConnectTimeout extends loaded.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: timeoutMs });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null) => void): void;
    override connect(callback?: (err: Error | null) => void): Promise<pg.Client> | void {
      if (!callback)
        return super.connect().catch((error: Error) => {
          throw explain(error);
        });
      super.connect((error: Error | null) => callback(error ? explain(error) : null));
    }
  };
}
