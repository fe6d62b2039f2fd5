import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { createUser, patchSettings } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

const BOUNDARY = '----plexwebhookboundary';

/** A Plex webhook body: multipart with the JSON in `payload` and a thumbnail part, as Plex sends it, or urlencoded. */
function form(payload: unknown, encoding: 'multipart' | 'urlencoded') {
  const json = typeof payload === 'string' ? payload : JSON.stringify(payload);
  if (encoding === 'urlencoded') {
    return { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams({ payload: json }).toString() };
  }
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="payload"\r\nContent-Type: application/json\r\n\r\n${json}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="thumb"; filename="thumb.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body };
}

const event = (guid: string, options: { event?: string; account?: string; server?: string; index?: number } = {}) => ({
  event: options.event ?? 'media.scrobble',
  user: true,
  owner: true,
  Account: { id: 1, thumb: 'https://plex.tv/users/x/avatar', title: options.account ?? 'SomePlexUser' },
  Server: { title: 'Media', uuid: options.server ?? 'unlinked-server' },
  Player: { local: true, publicAddress: '203.0.113.1', title: 'TV', uuid: 'player' },
  Metadata: {
    librarySectionType: 'show',
    guid,
    parentGuid: guid.replace(/\/\d+(\?.*)?$/, ''),
    grandparentGuid: guid.replace(/\/-?\d+\/\d+(\?.*)?$/, ''),
    type: 'episode',
    index: options.index ?? 2,
    lastViewedAt: 1700000000,
  },
});

describe('Plex webhook POST /plex and /plex.json', () => {
  let server: TestServer;
  let adminKey: string;
  let viewer: { id: number; key: string };
  let fan: { id: number; key: string };
  let other: { id: number; key: string };
  let series = 0;
  let lockedSeries = 0;
  let episodeIds: number[] = [];
  let lockedEpisode = 0;

  const post = (
    url: string,
    payload: unknown,
    options: { encoding?: 'multipart' | 'urlencoded'; headers?: Record<string, string> } = {},
  ) => {
    const { contentType, body } = form(payload, options.encoding ?? 'multipart');
    return server.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, ...options.headers }, payload: body });
  };
  const watchedBy = async (episodeId: number) =>
    (
      await server.services.db.kysely
        .selectFrom('user_episode_states')
        .select('user_id')
        .where('episode_id', '=', episodeId)
        .where('watched_at', 'is not', null)
        .orderBy('user_id')
        .execute()
    ).map((r) => r.user_id);
  const guid = (seriesId: number, season: number, episode: number) => `com.plexapp.agents.shoko://${seriesId}/${season}/${episode}?lang=en`;

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    server = setup.server;
    adminKey = setup.key;
    viewer = setup.viewer;
    fan = await createUser(server, adminKey, 'fan', 'pw');
    other = await createUser(server, adminKey, 'other', 'pw');
    const res = await server.request({
      method: 'PUT',
      url: `/api/v3/User/${fan.id}`,
      key: adminKey,
      body: { PlexUsernames: 'FanOnPlex, fan-second' },
    });
    expect(res.statusCode).toBe(200);
    const written = await insertSeries(server.services.db.kysely, [
      {
        animeId: 501,
        title: 'Webhook Show',
        episodes: [
          { id: 50101, number: 1 },
          { id: 50102, number: 2 },
          { id: 50103, number: 3 },
          { id: 50111, number: 2, type: 'Special' },
        ],
      },
      { animeId: 502, title: 'Hidden Show', tags: [{ id: 99, name: 'secret' }], episodes: [{ id: 50201, number: 1 }] },
    ]);
    series = written.get(501)!.seriesId;
    episodeIds = written.get(501)!.episodeIds;
    lockedSeries = written.get(502)!.seriesId;
    lockedEpisode = written.get(502)!.episodeIds[0];
  });
  afterAll(() => server.close());

  it('answers 400 "Need a valid payload" without a payload and model errors for missing parts', async () => {
    let res = await server.app.inject({ method: 'POST', url: '/plex', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Need a valid payload');
    res = await post('/plex', { event: 'media.scrobble', Account: {}, Server: {} });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Need a valid payload');
    res = await server.app.inject({
      method: 'POST',
      url: '/plex',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'other=1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Need a valid payload');
    const { Account: _account, ...noAccount } = event(guid(series, 1, 2));
    res = await post('/plex', noAccount);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Account']);
    res = await post('/plex', '{not json');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['payload']);
  });

  it("marks the episode watched for the API key's user on media.scrobble (multipart with a thumbnail)", async () => {
    const res = await post(`/plex?apikey=${other.key}`, event(guid(series, 1, 2)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    expect(await watchedBy(episodeIds[1])).toEqual([other.id]);
    // The special numbered 2 is a different episode and stays unwatched.
    expect(await watchedBy(episodeIds[3])).toEqual([]);
  });

  it('ignores other events, specials (season 0), non-Shoko GUIDs and unknown episodes', async () => {
    for (const payload of [
      event(guid(series, 1, 3), { event: 'media.play' }),
      event(guid(series, 0, 1)),
      event(guid(series, 1, 3), { index: 0 }),
      event('com.plexapp.agents.thetvdb://12345/1/3?lang=en'),
      event(guid(series, 1, 42)),
      event(guid(999999, 1, 1)),
    ]) {
      const res = await post(`/plex?apikey=${other.key}`, payload);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await watchedBy(episodeIds[2])).toEqual([]);
    expect(await watchedBy(episodeIds[0])).toEqual([]);
  });

  it('does nothing for a key-less caller while no Plex server is linked, whatever account name it claims', async () => {
    const res = await post('/plex', event(guid(series, 1, 1), { account: 'FanOnPlex' }));
    expect(res.statusCode).toBe(200);
    expect(await watchedBy(episodeIds[0])).toEqual([]);
  });

  it('acts key-less only for the linked Plex server, and only for a user who lists that Plex account', async () => {
    await patchSettings(server, adminKey, [{ op: 'replace', path: '/Plex/Server', value: 'linked-server-id' }]);

    // Another Plex server (or anyone forging a payload without the linked server's id) is ignored.
    await post('/plex', event(guid(series, 1, 1), { account: 'FanOnPlex', server: 'some-other-server' }));
    expect(await watchedBy(episodeIds[0])).toEqual([]);
    // An account nobody listed marks nothing for anyone, admins included.
    await post('/plex', event(guid(series, 1, 1), { account: 'Default', server: 'linked-server-id' }));
    expect(await watchedBy(episodeIds[0])).toEqual([]);
    // The listed account (names compared without case), via the urlencoded form and the .json alias.
    const res = await post('/plex.json', event(guid(series, 1, 1), { account: 'fan-SECOND', server: 'Linked-Server-Id' }), {
      encoding: 'urlencoded',
    });
    expect(res.statusCode).toBe(200);
    expect(await watchedBy(episodeIds[0])).toEqual([fan.id]);
  });

  it('never marks a series hidden from the user by their tag restrictions', async () => {
    const res = await post(`/plex?apikey=${viewer.key}`, event(guid(lockedSeries, 1, 1)));
    expect(res.statusCode).toBe(200);
    expect(await watchedBy(lockedEpisode)).toEqual([]);
    await post(`/plex?apikey=${other.key}`, event(`com.plexapp.agents.shokorelay://${lockedSeries}/1/1`));
    expect(await watchedBy(lockedEpisode)).toEqual([other.id]);
  });

  it("refuses another site's page posting the form from a visitor's browser", async () => {
    const res = await post('/plex', event(guid(series, 1, 3), { account: 'FanOnPlex', server: 'linked-server-id' }), {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    expect(await watchedBy(episodeIds[2])).toEqual([]);
  });
});
