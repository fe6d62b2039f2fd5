import { Type } from '@sinclair/typebox';
import {
  type ApiV2Message,
  PlexDirectory,
  PlexLibrariesBody,
  PlexMediaDevice,
  PlexServerBody,
  PlexSyncUserParams,
  TraktCode,
  TraktLegacyCredentials,
} from '@shoko-ts/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../../http/problem.js';
import { sendText } from '../../http/reply.js';
import type { App } from '../../http/types.js';
import { TraktCodeMissingError, type TraktService } from './trakt.service.js';
import type { PlexService } from './plex.service.js';
import type { PlexSync } from './plex.sync.js';
import type { TraktSync } from './trakt.sync.js';
import type { PlexWebhook } from './plex-webhook.js';
import { acceptMultipart, MultipartForm } from '../webui/index.js';

/** Plex helper routes act as the calling user; the first-run principal has no user record and no Plex account. */
function callerId(request: FastifyRequest): number {
  const principal = request.principal;
  if (principal?.kind !== 'user') throw badRequest('A user API key is required.');
  return principal.userId;
}

const asString = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/** Trakt's device-code link (`/api/trakt/code`, v2 module, admin) and the Plex helper routes (`/plex/*`, v0, user). */
export function registerIntegrationRoutes(
  app: App,
  deps: { trakt: TraktService; traktSync: TraktSync; plex: PlexService; plexSync: PlexSync; webhook: PlexWebhook },
) {
  const { trakt, traktSync, plex, plexSync, webhook } = deps;

  app.get(
    '/api/trakt/code',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Trakt'],
        summary: 'Start linking Trakt: a device code for the user to enter at the URL',
        response: { 200: TraktCode, 500: Type.Unknown() },
      },
    },
    async (_request, reply) => {
      try {
        return await trakt.requestCode();
      } catch (error) {
        if (!(error instanceof TraktCodeMissingError)) throw error;
        return reply.code(500).send({ code: 500, message: error.message, details: [{ Item1: error.message, Item2: '' }] });
      }
    },
  );

  // Legacy v2 routes (contract server.md §8.2), admin as in Shoko. The tokens are write-only here, as in GET Settings.
  app.get(
    '/api/trakt/get',
    {
      config: { auth: 'admin' },
      schema: { tags: ['Trakt'], summary: 'Legacy: Trakt credentials', response: { 200: TraktLegacyCredentials } },
    },
    () => ({ login: null, password: null, port: 0, token: '', refresh_token: '', apikey: null, apiport: 0 }),
  );

  // Shoko queues "Send Watch States to Trakt" when linked (v2 "ok" message) and answers 204 otherwise.
  app.get(
    '/api/trakt/sync',
    {
      config: { auth: 'admin' },
      schema: { tags: ['Trakt'], summary: 'Legacy: send watch states to Trakt (200 ApiV2Message, or 204 when not linked)' },
    },
    async (_request, reply) => {
      if (!trakt.linked) return reply.code(204).send();
      await traktSync.queue('send');
      const body: ApiV2Message = { code: 200, message: 'ok', details: [] };
      return reply.send(body);
    },
  );

  const tags = ['Plex'];
  app.get(
    '/plex/loginurl',
    { schema: { tags, summary: 'The app.plex.tv URL where the caller approves a new login PIN (text)' } },
    async (request, reply) => sendText(reply, await plex.loginUrl(callerId(request))),
  );
  app.get(
    '/plex/pin/authenticated',
    { schema: { tags, summary: 'Whether the caller has a Plex token plex.tv accepts', response: { 200: Type.Boolean() } } },
    async (request) => plex.isAuthenticated(callerId(request)),
  );
  app.get(
    '/plex/token/invalidate',
    { schema: { tags, summary: "Forget the caller's Plex token", response: { 200: Type.Boolean() } } },
    async (request) => {
      await plex.forget(callerId(request));
      return true;
    },
  );
  app.get(
    '/plex/server/list',
    { schema: { tags, summary: "The caller's Plex media servers", response: { 200: Type.Array(PlexMediaDevice) } } },
    async (request) => plex.servers(callerId(request)),
  );
  app.post(
    '/plex/server',
    { schema: { tags, summary: 'Select the media server (body: JSON string ClientIdentifier)', body: PlexServerBody } },
    async (request, reply) => {
      await plex.selectServer(callerId(request), asString(request.body));
      return reply.send();
    },
  );
  app.get(
    '/plex/libraries',
    { schema: { tags, summary: 'Library sections of the selected server', response: { 200: Type.Array(PlexDirectory) } } },
    async (request) => plex.libraries(callerId(request)),
  );
  app.post(
    '/plex/libraries',
    { schema: { tags, summary: 'Choose the libraries to sync (section keys; [] clears)', body: PlexLibrariesBody } },
    async (request, reply) => {
      await plex.setLibraries(callerId(request), request.body);
      return reply.send();
    },
  );

  app.get(
    '/plex/sync',
    { schema: { tags, summary: "Queue the watched-state sync of the caller's Plex account" } },
    async (request, reply) => {
      await plexSync.queueFor(callerId(request), { requireToken: false });
      return reply.send();
    },
  );
  app.get(
    '/plex/sync/all',
    { config: { auth: 'admin' }, schema: { tags, summary: 'Queue the watched-state sync of every user with Plex linked' } },
    async (_request, reply) => {
      await plexSync.queueAll();
      return reply.send();
    },
  );
  // Shoko queues the caller's sync here whatever the id says; we sync the user the id names.
  app.get(
    '/plex/sync/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Queue the watched-state sync of one user (400 unless that user linked Plex)',
        params: PlexSyncUserParams,
      },
    },
    async (request, reply) => {
      await plexSync.queueFor(request.params.id, { requireToken: true });
      return reply.send();
    },
  );

  // Plex's webhook (contract server.md §8.1): form bodies (multipart, as Plex sends them with a thumbnail, or
  // urlencoded) with the event JSON in the `payload` field. The parsers live in this scope only. Key-less calls are
  // accepted, as Shoko's, but act only as PlexWebhook allows.
  void app.register(async (scope) => {
    acceptMultipart(scope, WEBHOOK_BODY_LIMIT);
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const body: unknown = request.body;
      const payload =
        body instanceof MultipartForm
          ? body.field('payload')
          : body instanceof URLSearchParams
            ? (body.get('payload') ?? undefined)
            : undefined;
      const principal = request.principal;
      await webhook.handle(webhook.parse(payload), principal?.kind === 'user' ? principal.userId : null);
      return reply.send();
    };
    for (const url of ['/plex', '/plex.json']) {
      scope.post(
        url,
        { config: { auth: 'none' }, bodyLimit: WEBHOOK_BODY_LIMIT, schema: { tags, summary: "Plex's webhook (form field payload)" } },
        handler,
      );
    }
  });
}

/** Plex attaches the item's thumbnail to multipart webhooks. */
const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;
