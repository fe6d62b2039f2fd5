import Fastify, { LogController } from 'fastify';
import cors from '@fastify/cors';
import { DEFAULT_BODY_LIMIT, isAllowedOrigin, readEdgeConfig, registerEdgePolicy } from './http/edge-policy.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { TSchema } from '@sinclair/typebox';
import { EVENT_REVISION_HEADER } from '@shoko-ts/contract';
import { registerAuthHook } from './http/auth-hook.js';
import { normalizeKeyCasing } from './http/body-casing.js';
import { normalizeQueryCasing } from './http/query-casing.js';
import { registerErrorHandling } from './http/errors.js';
import type { App } from './http/types.js';
import { registerWebUI } from './http/webui.js';
import { registerBasePath, stripBasePath, trustedProxyMatcher } from './http/base-path.js';
import { registerSwaggerAliases, relaxDefaultedParameters, withPublicPrefix } from './http/swagger-paths.js';
import { documentResponses } from './http/swagger-responses.js';
import { registerSignalRHubs } from './http/signalr/index.js';
import { registerAuthRoutes } from './domains/auth/index.js';
import { registerUserRoutes, registerUserWebUISettingsRoutes, createUserWebUISettings } from './domains/users/index.js';
import { registerAniDBTagListRoute, registerTagRoutes } from './domains/tags/index.js';
import { registerSeriesUtilityRoutes } from './domains/utilities/index.js';
import { registerInitRoutes, registerHealthRoutes } from './domains/init/index.js';
import { registerBackupRoutes } from './domains/backup/index.js';
import { registerShokoImportRoutes } from './domains/shoko-import/index.js';
import { registerSettingsRoutes } from './domains/settings/index.js';
import { registerQueueRoutes, anidbWorkEstimator, registerAniDBEstimateRoute } from './domains/queue/index.js';
import { registerNetworkRoutes } from './domains/network/index.js';
import { registerFolderRoutes, registerImportFolderRoutes } from './domains/import-folders/index.js';
import { registerFileRoutes, registerScrobbleRoutes } from './domains/files/index.js';
import { registerMetadataRoutes } from './domains/metadata/index.js';
import { registerImageRoutes } from './domains/images/index.js';
import { registerActionRoutes } from './domains/actions/index.js';
import { registerWebUIRoutes } from './domains/webui/index.js';
import { registerFiltersRoutes } from './domains/filters/index.js';
import { registerGroupsRoutes } from './domains/groups/index.js';
import { registerRenamerRoutes } from './domains/renamer/index.js';
import {
  registerTmdbRoutes,
  registerTmdbLocalRoutes,
  createTmdbLocal,
  createTmdbXrefTransfer,
  registerTmdbXrefTransferRoutes,
} from './domains/tmdb/index.js';
import { registerDashboardRoutes } from './domains/dashboard/index.js';
import { registerPlaybackRoutes } from './domains/playback/index.js';
import {
  registerSeriesRoutes,
  registerSeriesCatalogRoutes,
  registerSeriesEditingRoutes,
  registerSeriesTmdbRoutes,
} from './domains/series/index.js';
import { registerAVDumpRoutes } from './domains/avdump/index.js';
import { registerEpisodeRoutes, registerEpisodeTmdbRoutes } from './domains/episodes/index.js';
import { registerIntegrationRoutes } from './domains/integrations/index.js';
import { registerReleaseManagementRoutes } from './domains/release-management/index.js';
import type { Services } from './services.js';
import { boundIntegers, findNonFinite } from './http/integer-bounds.js';
import { ReadCache, registerReadCache } from './http/read-cache.js';
import { validationError } from './http/problem.js';
import { createLazySchemaCompilers } from './http/lazy-schema-compilers.js';

const JSON_LIKE_TYPES = ['text/plain', 'text/json', 'application/json-patch+json'];
const JSON_SUFFIX_TYPE = /^application\/[^;]+\+json/;

/** Builds the HTTP application over ready services: hooks, error mapping, every domain's routes, hubs, console. */
export interface RegisteredRoute {
  method: string;
  url: string;
  auth: string | undefined;
  /** The route's request schemas, for tests that generate requests (fuzzing). */
  schema?: { querystring?: TSchema; body?: TSchema; params?: TSchema };
}

export async function buildApp(
  services: Services,
  logger: Logger,
): Promise<{ app: App; routes: RegisteredRoute[]; close(): Promise<void> }> {
  const edge = readEdgeConfig(process.env);
  const basePath = services.config.basePath ?? '';
  const trustsProxy = trustedProxyMatcher(edge.trustedProxies);
  const schemaCompilers = createLazySchemaCompilers();
  // Each route's request checks and answer writer compile on first use; once started, the rest compile in the background.
  const warmRoutes = () => {
    const started = performance.now();
    void schemaCompilers
      .warm()
      .then((count) =>
        logger
          .child({ name: 'Init' })
          .info(`Prepared ${count} request and answer schemas in ${Math.round(performance.now() - started)} ms`),
      );
  };
  // A first run waits for its wizard, which may import a whole Shoko collection, before it starts: the rest compile
  // while it waits, so the first visits after that start do not share the CPU with them (1.3 s of the 3.3 s after a
  // 100,000-file import's Completed on SQLite went to them).
  const firstRun = services.settings.current.FirstRun;
  if (services.config.warmRoutes && !firstRun) services.init.whenStarted(warmRoutes);
  const app = Fastify({
    loggerInstance: logger.child({ name: 'HTTP' }),
    // Per-request lines would drown the log the console shows; errors are logged by our error handler.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // Routes that upload (avatars, themes) raise this for themselves; a larger JSON body is refused with 413.
    bodyLimit: DEFAULT_BODY_LIMIT,
    // X-Forwarded-For/-Proto/-Host (and -Prefix, see base-path.ts) count only from the proxies in SHOKO_TRUSTED_PROXIES.
    trustProxy: edge.trustedProxies.length ? (address: string) => trustsProxy(address) : false,
    // Under SHOKO_BASE_PATH every route, hook and hub still sees root paths.
    rewriteUrl: stripBasePath(basePath),
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true } },
    schemaController: { compilersFactory: schemaCompilers.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // Shoko accepts JSON sent as text/plain and under the +json media types.
  const parseJsonText = (_request: unknown, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined);
    }
  };
  app.addContentTypeParser(JSON_LIKE_TYPES, { parseAs: 'string' }, parseJsonText);
  app.addContentTypeParser(JSON_SUFFIX_TYPE, { parseAs: 'string' }, parseJsonText);

  registerBasePath(app, basePath, trustsProxy);
  registerEdgePolicy(app, edge);
  // Read when the request arrives: an event raised while it is answered may or may not be in the answer.
  app.addHook('onRequest', async (_request, reply) => void reply.header(EVENT_REVISION_HEADER, services.bus.revision));
  // Only the origins listed in SHOKO_CORS_ORIGINS get CORS grants; the console and web UI we serve are same-origin.
  // Fixed options with an origin check, so the options are not built again for every request.
  await app.register(cors, {
    origin: (origin, callback) =>
      callback(null, typeof origin === 'string' && isAllowedOrigin(origin, [], edge.corsOrigins) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'shoko-ts API (Shoko Server API v3)', version: services.versions().Server.Version ?? '' },
      components: { securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'apikey' } } },
      security: [{ apikey: [] }],
    },
    transform: documentResponses,
    transformObject: (document) => relaxDefaultedParameters('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
  await app.register(swaggerUi, {
    routePrefix: '/swagger',
    uiConfig: { docExpansion: 'none' },
    // Without the trailing slash the UI would load its assets from an absolute /swagger/static, outside a base path.
    uiHooks: {
      onRequest: (request, reply, done) => {
        if (request.publicPrefix && /^\/swagger(\?|$)/i.test(request.url)) reply.redirect(`${request.publicPrefix}/swagger/`, 302);
        else done();
      },
    },
    transformSpecification: (document, request) => withPublicPrefix(document, request.publicPrefix),
  });
  registerSwaggerAliases(app);
  // Swagger's own routes are public documentation.
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const requestSchemas = route.schema as { params?: unknown; querystring?: unknown; body?: unknown } | undefined;
    for (const part of [requestSchemas?.params, requestSchemas?.querystring, requestSchemas?.body]) boundIntegers(part);
    if (route.url.startsWith('/swagger')) route.config = { ...(route.config ?? {}), auth: 'none', initFriendly: true };
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        const schema = route.schema as RegisteredRoute['schema'] | undefined;
        routes.push({
          method,
          url: route.url,
          auth: (route.config as { auth?: string } | undefined)?.auth,
          schema: schema && { querystring: schema.querystring, body: schema.body, params: schema.params },
        });
      }
    }
  });

  registerErrorHandling(app, { onDatabaseFault: (error) => services.dataDisk.noteFailure(error) });
  registerAuthHook(app, {
    resolveKey: (key) => services.auth.resolve(key),
    isFreshInstall: () => services.init.isFreshInstall(),
    isStarted: () => services.state.isStarted,
  });
  app.addHook('preHandler', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = findNonFinite(part);
      if (field) throw validationError(field, `The value for ${field} is not a finite number.`);
    }
  });
  app.addHook('preValidation', async (request) => {
    const schemas = request.routeOptions.schema as { body?: TSchema; querystring?: TSchema; params?: TSchema } | undefined;
    if (schemas?.querystring && request.query && typeof request.query === 'object') {
      request.query = normalizeQueryCasing(request.query, schemas.querystring);
    }
    // Route segments bind the same way (`Watched/True`).
    if (schemas?.params && request.params && typeof request.params === 'object') {
      request.params = normalizeQueryCasing(request.params, schemas.params);
    }
    const bodySchema = schemas?.body;
    if (bodySchema && request.body && typeof request.body === 'object') {
      request.body = normalizeKeyCasing(request.body, bodySchema);
    }
  });

  // Collection, group and series pages and dashboard widgets are read far more often than anything changes.
  const readCache = new ReadCache(services.config.readCache === false ? 0 : 10_000);
  // A login writes only its key: it changes no answer, so it keeps the cache (and the kept figures) as they are.
  registerReadCache(app, readCache, services.bus, (url) => /^\/api\/(auth$|v3\/(Filter\/Preview\/|WebUI\/GroupView))/i.test(url));
  readCache.onClear(() => services.collection.filters.forgetKeptFigures());
  readCache.onClear(() => services.importFolders.forgetKeptFigures());
  registerAuthRoutes(app, {
    auth: services.auth,
    throttle: services.loginThrottle,
    changePassword: (userId, body) => services.users.changePassword(userId, body),
  });
  registerUserRoutes(app, { users: services.users });
  registerUserWebUISettingsRoutes(app, {
    webuiSettings: createUserWebUISettings({ db: services.db.kysely, serverWebUISettings: () => services.settings.current.WebUI_Settings }),
  });
  registerInitRoutes(app, {
    init: services.init,
    state: services.state,
    network: services.network,
    anidb: services.anidbStatus,
    versions: services.versions,
  });
  registerHealthRoutes(app, { health: services.health });
  registerBackupRoutes(app, { backups: services.backups });
  registerShokoImportRoutes(app, {
    shokoImport: services.shokoImport,
    isStarted: () => services.state.isStarted,
    startServer: () => services.init.startServer(),
  });
  registerSettingsRoutes(app, { settings: services.settings, testAniDBLogin: services.testAniDBLogin, throttle: services.loginThrottle });
  registerQueueRoutes(app, { queue: services.queueControl });
  registerAniDBEstimateRoute(app, { estimator: anidbWorkEstimator(services) });
  registerNetworkRoutes(app, { anidbStates: () => services.aggregateSources.anidbStates() });
  registerIntegrationRoutes(app, services.integrations);
  registerActionRoutes(app, { actions: services.actions });
  registerImportFolderRoutes(app, {
    folders: services.importFolders,
    importer: services.importer,
    availability: services.folderAvailability,
  });
  registerFolderRoutes(app, { folders: services.importFolders });
  registerFileRoutes(app, {
    files: services.files,
    folderExists: (id) =>
      services.importFolders.get(id).then(
        () => true,
        () => false,
      ),
    queueRelocation: (ids) => services.renamer.queueRenameOnImport(ids),
  });
  registerAVDumpRoutes(app, services.avdump);
  registerImageRoutes(app, { images: services.images.service });
  registerMetadataRoutes(app, {
    ...services.metadata,
    links: services.metadata.manualLinks,
    files: services.files,
    settings: services.settings,
    logger: logger.child({ name: 'AniDB' }),
  });
  registerWebUIRoutes(app, services.webui);
  registerGroupsRoutes(app, { groups: services.collection.groups });
  registerFiltersRoutes(app, { filters: services.collection.filters, groups: services.collection.groups });
  registerTmdbRoutes(app, services.tmdb);
  registerTmdbLocalRoutes(app, {
    ...createTmdbLocal(
      services.db.kysely,
      services.tmdb,
      services.images.service,
      async (contents) => (await services.files.details?.crossReferences(contents)) ?? new Map(),
    ),
    readers: {
      anidbAnime: (userId, id) => services.metadata.anidbSearch.anime(id, userId),
      anidbEpisode: (id) => services.episodes.anidbEpisode(id),
      series: (userId, id, query) => services.series.series(userId, id, query),
      episode: (userId, id, query) => services.episodes.episode(userId, id, query),
      files: (query, scope) => services.files.listFromQuery(query, scope),
    },
  });
  registerTmdbXrefTransferRoutes(app, {
    transfer: createTmdbXrefTransfer(services.db.kysely, services.tmdb, logger.child({ name: 'TMDB' })),
  });
  registerRenamerRoutes(app, { renamer: services.renamer });
  registerDashboardRoutes(app, { dashboard: services.dashboard, files: services.files });
  registerScrobbleRoutes(app, { scrobble: services.scrobble, changed: () => readCache.clear() });
  registerPlaybackRoutes(app, services.playback);
  const groups = services.collection.groups;
  registerSeriesRoutes(app, {
    series: services.series,
    tags: services.tags,
    group: async (userId, groupId) => groups.get(groupId, await groups.viewer(userId)),
  });
  registerEpisodeRoutes(app, { episodes: services.episodes, files: services.files, series: services.series });
  registerSeriesCatalogRoutes(app, { catalog: services.seriesCatalog });
  registerSeriesEditingRoutes(app, { editing: services.seriesEditing });
  registerSeriesTmdbRoutes(app, { seasons: services.seriesTmdbSeasons });
  registerEpisodeTmdbRoutes(app, { tmdb: services.tmdb.service, linking: services.tmdb.linking });
  registerTagRoutes(app, { tags: services.tags });
  registerAniDBTagListRoute(app, { tags: services.tags });
  registerReleaseManagementRoutes(app, { releases: services.releaseManagement });
  registerSeriesUtilityRoutes(app, { utilities: services.utilities });

  const hubs = await registerSignalRHubs(app, {
    bus: services.bus,
    authenticate: (key) => services.auth.resolve(key),
    firstRun: async () => !services.state.isStarted && (await services.init.isFreshInstall()),
    logBacklog: () => services.logs.backlog(),
    aggregate: services.aggregateSources,
    queueControl: { pause: () => services.queue.pause(), resume: () => services.queue.resume() },
  });

  const webui = await registerWebUI(app, services.config.webuiDir);
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'GET' && (await webui.serveConsoleRoute(request, reply))) return reply;
    return reply.code(404).send();
  });

  // A first run's warm-up (see warmRoutes) once the routes are ready.
  if (services.config.warmRoutes && firstRun) app.addHook('onReady', async () => void setImmediate(warmRoutes));

  return {
    app,
    routes,
    close: async () => {
      await hubs.close();
      await app.close();
    },
  };
}
