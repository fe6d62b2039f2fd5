import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ApiV2Message,
  ComponentVersion,
  LegacyWebUIConfigBody,
  ThemeParams,
  ThemeRefreshQuery,
  WebUITheme,
  WebUIThemeFromURL,
  WebUIUpdateQuery,
  WebUIVersionQuery,
  type ReleaseChannel,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { HttpError, notFound, problemBody, textError, validationError } from '../../http/problem.js';
import { DownloadError } from './download.js';
import { acceptMultipart, MultipartForm } from './multipart.js';
import { GitHubUnavailableError, NoReleaseError, type ReleasesService } from './releases.service.js';
import { MAX_THEME_BYTES, ThemeParseError, ThemeRequestError, type ThemesService } from './themes.service.js';
import type { WebUIUpdater } from './webui-updater.js';

const tags = ['WebUI'];
const THEME_NOT_FOUND = 'A theme with the given id was not found.';
const CHANNELS: ReleaseChannel[] = ['Auto', 'Stable', 'Dev', 'Debug'];

/** `ReleaseChannel` from a query: the name in any case, or its number. */
function parseChannel(value: string | undefined): ReleaseChannel {
  if (value === undefined || value === '') return 'Auto';
  const byNumber = /^\d+$/.test(value) ? CHANNELS[Number(value)] : undefined;
  const byName = CHANNELS.find((channel) => channel.toLowerCase() === value.toLowerCase());
  const channel = byNumber ?? byName;
  if (!channel) throw validationError('channel', `The value '${value.slice(0, 100)}' is not valid.`);
  return channel;
}

/** Service failures as the contract answers them. */
function mapThemeError(error: unknown, field = 'Body'): never {
  if (error instanceof ThemeRequestError) throw validationError(error.field === 'Body' ? field : error.field, error.message);
  // The contract answers 500 text for unparsable JSON; a client's broken file is its own error, so we answer 400 text.
  if (error instanceof ThemeParseError) throw textError(400, error.message);
  if (error instanceof DownloadError) throw textError(500, error.message);
  throw error;
}

function mapReleaseError(error: unknown): never {
  if (error instanceof GitHubUnavailableError) throw textError(502, error.message);
  if (error instanceof NoReleaseError) throw textError(400, error.message);
  throw error;
}

const sendCss = (reply: FastifyReply, css: string) => reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(css);

export interface WebUIRouteDeps {
  themes: ThemesService;
  releases: ReleasesService;
  updater: WebUIUpdater;
}

/** Console themes (server.md §7.0–7.9) and the console/server release checks and console update (§7.11–7.13). */
export function registerWebUIRoutes(app: App, deps: WebUIRouteDeps) {
  const { themes, releases, updater } = deps;
  const anonymous = { auth: 'none', initFriendly: true } as const;

  app.get(
    '/api/v3/WebUI/Theme',
    { config: anonymous, schema: { tags, querystring: ThemeRefreshQuery, response: { 200: Type.Array(WebUITheme) } } },
    (request) => themes.list(request.query.forceRefresh),
  );
  app.get('/api/v3/WebUI/Theme.css', { config: anonymous, schema: { tags, querystring: ThemeRefreshQuery } }, async (request, reply) =>
    sendCss(reply, await themes.stylesheet(request.query.forceRefresh)),
  );

  // Themes are public styling, as the list and the combined stylesheet are (contract: anonymous).
  app.get(
    '/api/v3/WebUI/Theme/:themeID',
    { config: anonymous, schema: { tags, params: ThemeParams, querystring: ThemeRefreshQuery } },
    async (request, reply) => {
      const cssOnly = request.params.themeID.toLowerCase().endsWith('.css');
      const theme = await themes.get(cssOnly ? request.params.themeID.slice(0, -4) : request.params.themeID, request.query.forceRefresh);
      if (!theme) throw notFound(THEME_NOT_FOUND);
      return cssOnly ? sendCss(reply, theme.CSS ?? '') : reply.send(theme);
    },
  );

  app.delete(
    '/api/v3/WebUI/Theme/:themeID',
    { config: { auth: 'admin' }, schema: { tags, params: ThemeParams } },
    async (request, reply) => {
      if (!(await themes.remove(request.params.themeID))) throw notFound(THEME_NOT_FOUND);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/WebUI/Theme/:themeID/Update',
    { schema: { tags, params: ThemeParams, response: { 200: WebUITheme } } },
    async (request) => {
      const theme = await themes.previewUpdate(request.params.themeID).catch((error) => mapThemeError(error));
      if (!theme) throw notFound(THEME_NOT_FOUND);
      return theme;
    },
  );

  app.post(
    '/api/v3/WebUI/Theme/:themeID/Update',
    { config: { auth: 'admin' }, schema: { tags, params: ThemeParams, response: { 200: WebUITheme } } },
    async (request) => {
      const theme = await themes.applyUpdate(request.params.themeID).catch((error) => {
        if (error instanceof ThemeRequestError) throw textError(400, error.message);
        return mapThemeError(error);
      });
      if (!theme) throw notFound(THEME_NOT_FOUND);
      return theme;
    },
  );

  app.post(
    '/api/v3/WebUI/Theme/AddFromURL',
    { config: { auth: 'admin' }, schema: { tags, body: WebUIThemeFromURL, response: { 200: WebUITheme } } },
    (request) => themes.addFromUrl(request.body.URL, request.body.Preview ?? false).catch((error) => mapThemeError(error, 'URL')),
  );

  // Multipart bodies are parsed only inside this plugin, so no other route accepts them.
  void app.register(async (scope) => {
    acceptMultipart(scope, MAX_THEME_BYTES + 64 * 1024);
    scope.post(
      '/api/v3/WebUI/Theme/AddFromFile',
      { config: { auth: 'admin' }, bodyLimit: MAX_THEME_BYTES + 64 * 1024, schema: { tags, response: { 200: WebUITheme } } },
      async (request) => {
        const form = request.body instanceof MultipartForm ? request.body : null;
        const file = form?.file('file');
        if (!file?.fileName?.trim()) throw validationError('file', 'File name cannot be empty or omitted.');
        const previewField = form!.field('preview')?.trim().toLowerCase();
        if (previewField !== undefined && previewField !== '' && previewField !== 'true' && previewField !== 'false') {
          throw validationError('preview', `The value '${previewField.slice(0, 100)}' is not valid.`);
        }
        return themes.addFromFile(file.fileName, file.data, previewField === 'true').catch((error) => mapThemeError(error));
      },
    );
  });

  app.get(
    '/api/v3/WebUI/LatestVersion',
    { config: { initFriendly: true }, schema: { tags, querystring: WebUIVersionQuery, response: { 200: ComponentVersion } } },
    async (request) => {
      const channel = parseChannel(request.query.channel);
      const release = await releases
        .latestWebUI(channel, { force: request.query.force, allowIncompatible: request.query.allowIncompatible })
        .catch(mapReleaseError);
      return release.version;
    },
  );

  app.get(
    '/api/v3/WebUI/LatestServerVersion',
    { config: { initFriendly: true }, schema: { tags, querystring: WebUIVersionQuery, response: { 200: ComponentVersion } } },
    async (request) => {
      const channel = parseChannel(request.query.channel);
      return releases.latestServer(channel, { force: request.query.force }).catch(mapReleaseError);
    },
  );

  type UpdateRequest = FastifyRequest<{ Querystring: { channel?: string; allowIncompatible?: boolean } }>;
  /** Installs the newest console of the channel; false when GitHub (or the download) could not be reached. */
  const runUpdate = async (request: UpdateRequest): Promise<boolean> => {
    try {
      await updater.update(parseChannel(request.query.channel), request.query.allowIncompatible ?? false);
      return true;
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof GitHubUnavailableError || error instanceof DownloadError) {
        request.log.warn({ err: error }, 'Updating the web UI failed');
        return false;
      }
      throw error;
    }
  };
  const gitHubDown = (reply: FastifyReply) =>
    reply
      .code(502)
      .type('application/problem+json')
      .send({ ...problemBody(502), title: 'Unable to connect to GitHub.' });
  const update = async (request: UpdateRequest, reply: FastifyReply) =>
    (await runUpdate(request)) ? reply.code(204).send() : gitHubDown(reply);

  // §7.10: a bootstrapper without a console may install one; with a real console in place there is nothing to do.
  const install = async (request: UpdateRequest, reply: FastifyReply) => {
    if (updater.hasConsole()) throw validationError('Request', 'Unable to install web UI when a web UI is already installed.');
    return (await runUpdate(request)) ? reply.redirect(`${request.publicPrefix}/webui/index.html`, 302) : gitHubDown(reply);
  };
  app.post('/api/v3/WebUI/Install', { config: anonymous, schema: { tags, querystring: WebUIUpdateQuery } }, install);
  app.get('/api/v3/WebUI/Install', { config: anonymous, schema: { tags, querystring: WebUIUpdateQuery } }, install);
  app.post('/api/v3/WebUI/Update', { config: { initFriendly: true }, schema: { tags, querystring: WebUIUpdateQuery } }, update);
  app.get('/api/v3/WebUI/Update', { config: { initFriendly: true }, schema: { tags, querystring: WebUIUpdateQuery } }, update);

  // Legacy v2 stubs (contract server.md Appendix D): Shoko answers both with a v2 400, whatever is sent. No response
  // schema: other 400s (a malformed body) are problem bodies, which a 400 schema for the v2 shape could not serialise.
  const legacyConfig = async (_request: unknown, reply: FastifyReply) => {
    const message = 'Config is not a Valid.';
    const body: ApiV2Message = { code: 400, message, details: [{ Item1: message, Item2: '' }] };
    return reply.code(400).send(body);
  };
  const legacySchema = { tags, summary: 'Legacy stub: always 400 (v2 ApiV2Message)' };
  app.get('/api/webui/config', { schema: legacySchema }, legacyConfig);
  app.post('/api/webui/config', { schema: { ...legacySchema, body: LegacyWebUIConfigBody } }, legacyConfig);
}
