import { HealthReport } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { HealthService } from './health.service.js';

/** `GET /healthz`: anonymous, also before the first run, for Docker's HEALTHCHECK and monitoring. */
export function registerHealthRoutes(app: App, deps: { health: HealthService }) {
  app.get(
    '/healthz',
    { config: { auth: 'none', initFriendly: true }, schema: { tags: ['Health'], response: { 200: HealthReport, 503: HealthReport } } },
    async (_request, reply) => {
      const report = await deps.health.report();
      return reply.code(report.Status === 'Healthy' ? 200 : 503).send(report);
    },
  );
}
