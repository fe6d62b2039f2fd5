import { CollectionPatchBody, SeriesAutoMatchSettings, SeriesParams, TitleOverrideBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { callerId } from '../../http/viewer.js';
import type { SeriesEditing } from './series-editing.service.js';

/** Title override, auto-match settings and the per-series Trakt syncs (contract §5.1, §5.10). */
export function registerSeriesEditingRoutes(app: App, deps: { editing: SeriesEditing }) {
  const { editing } = deps;
  const tags = ['Series'];
  const admin = { auth: 'admin' as const };

  app.post(
    '/api/v3/Series/:seriesID/OverrideTitle',
    { config: admin, schema: { tags, params: SeriesParams, body: TitleOverrideBody } },
    async (request, reply) => {
      await editing.overrideTitle(callerId(request.principal), request.params.seriesID, request.body.Title);
      return reply.code(200).send();
    },
  );

  app.get('/api/v3/Series/:seriesID/AutoMatchSettings', { config: admin, schema: { tags, params: SeriesParams } }, (request) =>
    editing.autoMatchSettings(callerId(request.principal), request.params.seriesID),
  );

  app.put(
    '/api/v3/Series/:seriesID/AutoMatchSettings',
    { config: admin, schema: { tags, params: SeriesParams, body: SeriesAutoMatchSettings } },
    (request) => editing.setAutoMatchSettings(callerId(request.principal), request.params.seriesID, request.body),
  );

  app.patch(
    '/api/v3/Series/:seriesID/AutoMatchSettings',
    { config: admin, schema: { tags, params: SeriesParams, body: CollectionPatchBody } },
    (request) => editing.patchAutoMatchSettings(callerId(request.principal), request.params.seriesID, request.body),
  );

  // Admin-only like Action/SendWatchStatesToTrakt and Action/GetWatchStatesFromTrakt: they use the server's Trakt account.
  for (const [action, direction] of [
    ['SendWatchStates', 'send'],
    ['GetWatchStates', 'get'],
  ] as const) {
    app.post(
      `/api/v3/Series/:seriesID/Trakt/${action}`,
      { config: admin, schema: { tags, params: SeriesParams } },
      async (request, reply) => {
        await editing.traktSync(callerId(request.principal), request.params.seriesID, direction);
        return reply.send();
      },
    );
  }
}
