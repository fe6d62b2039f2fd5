import { ACTION_CATALOGUE, ActionOptionsQuery, RemoveMissingFilesParams } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { sendText } from '../../http/reply.js';
import type { ActionsService } from './actions.service.js';

const tags = ['Action'];
/** Admin-only routes of the catalogue, plus the ones the console does not list (contract server.md §6.1). */
const ADMIN_ACTIONS = new Set([
  ...ACTION_CATALOGUE.filter((a) => a.Admin).map((a) => a.Function.split(/[/?]/)[0]),
  'PurgeAllUnusedTmdbImages',
  'PurgeAllTmdbLinks',
  'DownloadMissingAniDBCreators',
  'CreateMissingSeries',
]);
const USER_ACTIONS = [
  'RunImport',
  'ImportNewFiles',
  'SyncVotes',
  'SearchForTmdbMatches',
  'UpdateAllTmdbShows',
  'UpdateAllTmdbMovies',
  'DownloadMissingTmdbPeople',
  'UpdateAllImages',
  'SyncHashes',
];
/**
 * Contract deviation: Shoko lets any user run these, but each removes or overwrites data of the whole server (file
 * records and MyList entries, image files that fail validation, every user's watched state on Trakt or here), so
 * they are admin-only.
 */
const DESTRUCTIVE_ACTIONS = ['ValidateAllImages', 'SendWatchStatesToTrakt', 'GetWatchStatesFromTrakt'];
const QUERY_ACTIONS = new Set(['UpdateMissingAniDBFileInfo', 'PurgeAllTmdbLinks']);

/**
 * `GET /api/v3/Action/<Name>` (contract server.md §6): each action queues its work and returns at once; actions
 * without an integration on this server answer 400 with the reason. Routing is case-insensitive
 * (`UpdateAnidbCalendar`).
 */
export function registerActionRoutes(app: App, deps: { actions: ActionsService }) {
  const { actions } = deps;
  const run = (name: string) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const outcome = await actions.run(name);
    return outcome.text === undefined ? reply.send() : sendText(reply, outcome.text);
  };

  // Contract: any user. They start work for the whole server, so the access table (http/access-policy.ts) keeps them for admins.
  for (const name of USER_ACTIONS) app.get(`/api/v3/Action/${name}`, { config: { auth: 'admin' }, schema: { tags } }, run(name));
  for (const name of DESTRUCTIVE_ACTIONS) app.get(`/api/v3/Action/${name}`, { config: { auth: 'admin' }, schema: { tags } }, run(name));
  for (const name of ADMIN_ACTIONS) {
    if (name === 'RemoveMissingFiles') continue;
    const querystring = QUERY_ACTIONS.has(name) ? ActionOptionsQuery : undefined;
    app.get(`/api/v3/Action/${name}`, { config: { auth: 'admin' }, schema: { tags, ...(querystring ? { querystring } : {}) } }, run(name));
  }

  // Answers with a line naming the offline import folders it leaves alone (issue 49), else empty as in Shoko.
  const removeMissing = async (removeFromMyList: boolean, reply: import('fastify').FastifyReply) => {
    const outcome = await actions.run('RemoveMissingFiles', { removeFromMyList });
    return outcome.text === undefined ? reply.send() : sendText(reply, outcome.text);
  };
  // Admin-only, unlike the contract: see DESTRUCTIVE_ACTIONS.
  app.get('/api/v3/Action/RemoveMissingFiles', { config: { auth: 'admin' }, schema: { tags } }, (_request, reply) =>
    removeMissing(true, reply),
  );
  app.get(
    '/api/v3/Action/RemoveMissingFiles/:removeFromMyList',
    { config: { auth: 'admin' }, schema: { tags, params: RemoveMissingFilesParams } },
    async (request, reply) => {
      const value = request.params.removeFromMyList.toLowerCase();
      // A segment that is not a bool matches no route in Shoko.
      if (value !== 'true' && value !== 'false') return reply.code(404).send();
      return removeMissing(value === 'true', reply);
    },
  );
}
