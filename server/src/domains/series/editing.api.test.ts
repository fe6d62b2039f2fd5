import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from './test-support.js';

/**
 * Invented collection: "Harbor Lights" (anime 401) alone in a group named after it, "Aozora Diaries" (402) in a
 * group the user named "My Shelf", and "Secret Garden" (403) whose tag 99 is restricted for the viewer.
 */
describe('series title override, auto-match settings and Trakt syncs', () => {
  let server: TestServer;
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  let viewerKey: string;
  const id: Record<number, number> = {};

  const json = async (method: string, url: string, body?: unknown) => {
    const res = await api(method, url, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    viewerKey = setup.viewer.key;
    const written = await insertSeries(server.services.db.kysely, [
      { animeId: 401, title: 'Harbor Lights', airDate: '2020-01-05', episodes: [{ id: 4001, file: true }] },
      { animeId: 402, title: 'Aozora Diaries', groupName: 'My Shelf', airDate: '2019-10-01', episodes: [{ id: 4101, file: true }] },
      { animeId: 403, title: 'Secret Garden', tags: [{ id: 99, name: 'ecchi' }], episodes: [{ id: 4201 }] },
    ]);
    for (const [animeId, w] of written) id[animeId] = w.seriesId;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('POST Series/{id}/OverrideTitle', () => {
    it('renames the series everywhere and the group that follows it; an empty title clears the override', async () => {
      const harbor = id[401];
      const res = await api('POST', `/api/v3/Series/${harbor}/OverrideTitle`, { Title: 'Harbour Nights' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe('');
      expect(await json('GET', `/api/v3/Series/${harbor}`)).toMatchObject({ Name: 'Harbour Nights', HasCustomName: true });
      expect((await json('GET', `/api/v3/Series/${harbor}/Group`)).Name).toBe('Harbour Nights');
      expect((await json('GET', '/api/v3/Series/Search?query=harbour%20nights'))[0].IDs.ID).toBe(harbor);
      expect((await json('GET', '/api/v3/Series?startsWith=harbour')).Total).toBe(1);

      expect((await api('POST', `/api/v3/Series/${harbor}/OverrideTitle`, { Title: '' })).statusCode).toBe(200);
      expect(await json('GET', `/api/v3/Series/${harbor}`)).toMatchObject({ Name: 'Harbor Lights', HasCustomName: false });
      expect((await json('GET', `/api/v3/Series/${harbor}/Group`)).Name).toBe('Harbor Lights');
    });

    it('leaves a group with a custom name alone', async () => {
      expect((await api('POST', `/api/v3/Series/${id[402]}/OverrideTitle`, { Title: 'Blue Sky' })).statusCode).toBe(200);
      expect((await json('GET', `/api/v3/Series/${id[402]}`)).Name).toBe('Blue Sky');
      expect((await json('GET', `/api/v3/Series/${id[402]}/Group`)).Name).toBe('My Shelf');
    });

    it('validates the body, answers 404 for unknown series and 403 for non-admins', async () => {
      const missingTitle = await api('POST', `/api/v3/Series/${id[401]}/OverrideTitle`, {});
      expect(missingTitle.statusCode).toBe(400);
      expect(JSON.stringify(missingTitle.json())).toContain('Title');
      expect((await api('POST', `/api/v3/Series/${id[401]}/OverrideTitle`)).statusCode).toBe(400);
      const unknown = await api('POST', '/api/v3/Series/99999/OverrideTitle', { Title: 'x' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toBe('No Series entry for the given seriesID');
      expect((await api('POST', `/api/v3/Series/${id[401]}/OverrideTitle`, { Title: 'x' }, viewerKey)).statusCode).toBe(403);
      expect((await json('GET', `/api/v3/Series/${id[401]}`)).Name).toBe('Harbor Lights');
    });
  });

  describe('Series/{id}/AutoMatchSettings', () => {
    it('reads, replaces and patches the TMDB switch, and the automatic TMDB match follows it', async () => {
      const url = `/api/v3/Series/${id[401]}/AutoMatchSettings`;
      expect(await json('GET', url)).toEqual({ TMDB: true });
      expect(await json('PUT', url, { TMDB: false })).toEqual({ TMDB: false });
      expect(await json('GET', url)).toEqual({ TMDB: false });
      expect(await server.services.seriesEditing.tmdbAutoMatchAllowed(401)).toBe(false);
      expect(await server.services.seriesEditing.tmdbAutoMatchAllowed(402)).toBe(true);
      expect(await json('PATCH', url, [{ op: 'replace', path: 'tmdb', value: 'true' }])).toEqual({ TMDB: true });
      expect(await json('PATCH', url, [{ op: 'replace', path: '/TMDB', value: false }])).toEqual({ TMDB: false });
      expect(await json('GET', url)).toEqual({ TMDB: false });
      expect(await json('GET', `/api/v3/Series/${id[402]}/AutoMatchSettings`)).toEqual({ TMDB: true });
    });

    it('answers 400 naming the field for bad bodies, 404 and 403', async () => {
      const url = `/api/v3/Series/${id[402]}/AutoMatchSettings`;
      const badValue = await api('PATCH', url, [{ op: 'replace', path: 'TMDB', value: 'maybe' }]);
      expect(badValue.statusCode).toBe(400);
      expect(badValue.json().errors).toHaveProperty('TMDB');
      expect((await api('PATCH', url, [{ op: 'replace', path: 'Other', value: true }])).statusCode).toBe(400);
      const noTmdb = await api('PUT', url, {});
      expect(noTmdb.statusCode).toBe(400);
      expect(JSON.stringify(noTmdb.json())).toContain('TMDB');
      expect(await json('GET', url)).toEqual({ TMDB: true });
      const unknown = await api('GET', '/api/v3/Series/99999/AutoMatchSettings');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toBe('No Series entry for the given seriesID');
      expect((await api('GET', url, undefined, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('POST Series/{id}/Trakt/SendWatchStates and GetWatchStates', () => {
    it('needs a linked Trakt account, a known series and a TMDB link, in that order', async () => {
      for (const action of ['SendWatchStates', 'GetWatchStates']) {
        const url = `/api/v3/Series/${id[401]}/Trakt/${action}`;
        const notLinked = await api('POST', url);
        expect(notLinked.statusCode).toBe(400);
        expect(notLinked.body).toBe('Trakt account is not linked!');
      }
      await server.services.settings.update((s) => {
        s.TraktTv.Enabled = true;
        s.TraktTv.AuthToken = 'token';
      });
      for (const action of ['SendWatchStates', 'GetWatchStates']) {
        const unknown = await api('POST', `/api/v3/Series/99999/Trakt/${action}`);
        expect(unknown.statusCode).toBe(404);
        expect(unknown.body).toBe('No Series entry for the given seriesID');
        const noTmdb = await api('POST', `/api/v3/Series/${id[401]}/Trakt/${action}`);
        expect(noTmdb.statusCode).toBe(400);
        expect(noTmdb.json().errors).toEqual({ Body: ['No TMDB entry for the given seriesID'] });
        expect((await api('POST', `/api/v3/Series/${id[401]}/Trakt/${action}`, undefined, viewerKey)).statusCode).toBe(403);
      }
      await server.services.db.kysely.insertInto('xref_anidb_tmdb_show').values({ anime_id: 401, show_id: 5000, source: 'User' }).execute();
      // Everything checked: the send is queued (Trakt itself is exercised in integrations/trakt-sync.api.test.ts).
      const queued = vi.spyOn(server.services.integrations.traktSync, 'queue').mockResolvedValue(undefined);
      try {
        const linked = await api('POST', `/api/v3/Series/${id[401]}/Trakt/SendWatchStates`);
        expect(linked.statusCode).toBe(200);
        expect(queued).toHaveBeenCalledWith('send', 401);
      } finally {
        queued.mockRestore();
      }
    });
  });
});
