import type { HealthReport, QueueState } from '@shoko-ts/contract';
import type { DataDisk } from '../../db/data-disk.js';
import type { HealthStore } from './health.store.js';
import type { ServerStateService } from './server-state.js';

/**
 * What `GET /healthz` reports: the process answers, the database answers, and the server is not in the Failed state.
 * A server still waiting for its first run, or with a paused queue, is healthy: nothing is wrong that a restart fixes.
 */
export class HealthService {
  constructor(
    private readonly deps: {
      store: HealthStore;
      state: ServerStateService;
      databaseKind: 'SQLite' | 'PostgreSQL';
      queueState: () => QueueState;
      dataDisk: DataDisk;
    },
  ) {}

  async report(): Promise<HealthReport> {
    const [reachable, dataDisk] = await Promise.all([this.deps.store.ping(), this.deps.dataDisk.health()]);
    const queue = this.deps.queueState();
    const problems: string[] = [];
    if (!reachable) problems.push('The database does not answer.');
    if (this.deps.state.current === 'Failed') problems.push(this.deps.state.status().StartupMessage ?? 'The server failed to start.');
    return {
      Status: problems.length ? 'Unhealthy' : 'Healthy',
      ServerState: this.deps.state.current,
      Database: { Kind: this.deps.databaseKind, Reachable: reachable },
      Queue: { Running: queue.Running, WaitingCount: queue.WaitingCount, Fault: queue.Fault?.Reason ?? null },
      DataDisk: dataDisk,
      Problems: problems,
    };
  }
}
