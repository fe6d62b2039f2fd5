import { AnidbBanStatus, type AniDBState } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { banStatus } from './ban-status.js';

/** `GET /api/v3/AniDB/BanStatus` (contract server.md §10.2): any user, once the server is started. */
export function registerNetworkRoutes(app: App, deps: { anidbStates(): [AniDBState, AniDBState] }) {
  app.get('/api/v3/AniDB/BanStatus', { config: { auth: 'user' }, schema: { tags: ['AniDB'], response: { 200: AnidbBanStatus } } }, () =>
    banStatus(deps.anidbStates()),
  );
}
