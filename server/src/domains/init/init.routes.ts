import { Type } from '@sinclair/typebox';
import { ComponentVersionSet, ConnectivityDetails, Credentials, ServerStatus } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { badRequest } from '../../http/problem.js';
import type { NetworkService } from '../network/index.js';
import type { InitService } from './init.service.js';
import type { ServerStateService } from './server-state.js';

export interface AniDBStatusSource {
  status(): { udpReachable: boolean; udpBanned: boolean; httpBanned: boolean };
}

export function registerInitRoutes(
  app: App,
  deps: {
    init: InitService;
    state: ServerStateService;
    network: NetworkService;
    anidb: AniDBStatusSource;
    versions: () => ComponentVersionSet;
  },
) {
  const { init, state, network, anidb, versions } = deps;
  const tags = ['Init'];
  const initFriendly = true;

  app.get(
    '/api/v3/Init/Version',
    { config: { auth: 'none', initFriendly }, schema: { tags, response: { 200: ComponentVersionSet } } },
    () => versions(),
  );

  app.get('/api/v3/Init/Status', { config: { auth: 'none', initFriendly }, schema: { tags, response: { 200: ServerStatus } } }, () =>
    state.status(),
  );

  app.get(
    '/api/v3/Init/Connectivity',
    { config: { auth: 'none', initFriendly }, schema: { tags, response: { 200: ConnectivityDetails } } },
    () => network.details(anidb.status()),
  );

  app.post(
    '/api/v3/Init/Connectivity',
    { config: { auth: 'admin', initFriendly }, schema: { tags, response: { 200: ConnectivityDetails } } },
    async () => {
      await network.check();
      return network.details(anidb.status());
    },
  );

  app.get(
    '/api/v3/Init/InUse',
    { config: { auth: 'none', initFriendly }, schema: { tags, response: { 200: Type.Boolean() } } },
    () => false,
  );

  app.get('/api/v3/Init/DefaultUser', { config: { auth: 'init', initFriendly }, schema: { tags, response: { 200: Credentials } } }, () =>
    init.getDefaultUser(),
  );

  app.post(
    '/api/v3/Init/DefaultUser',
    { config: { auth: 'init', initFriendly }, schema: { tags, body: Credentials } },
    async (request, reply) => {
      if (!request.body.Username.trim()) throw badRequest('Username cannot be empty.');
      init.setDefaultUser(request.body);
      return reply.send();
    },
  );

  // Shoko leaves this anonymous; here it needs the first-run principal or an admin key.
  app.get('/api/v3/Init/StartServer', { config: { auth: 'admin', initFriendly }, schema: { tags } }, async (_request, reply) => {
    init.startServer();
    return reply.send();
  });

  app.get('/api/v3/Init/Database/Test', { config: { auth: 'init', initFriendly }, schema: { tags } }, async (_request, reply) =>
    reply.send(),
  );
}
