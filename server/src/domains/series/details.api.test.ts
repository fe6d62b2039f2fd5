import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from './test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * "Cast Show" (anime 401): episodes 4001 (file, watched by the admin), 4002 (file), 4003 (aired, no file), special 4004 and
 * other 4005 (both with files). Characters: Hero (voiced by Voice Person) and the Guild (an organisation, no voice).
 * Staff: Studio X (Animation Work) and Dir Person (Direction). Relations: sequel 402 (local), side story 9999 (unknown),
 * and 403 names 401 as its sequel. Similar: 402 with 30 of 40 votes. "Hidden Show" (405) carries the viewer's restricted tag.
 */
describe('series credits, relations and next-up API', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  let show = 0;
  let sequel = 0;
  let hidden = 0;
  const ep: Record<number, number> = {};
  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, key, api } = setup);
    const viewer = setup.viewer;
    viewerKey = viewer.key;
    const db = server.services.db.kysely;
    const admin = (await db.selectFrom('users').select('id').where('id', '<>', viewer.id).executeTakeFirstOrThrow()).id;
    const written = await insertSeries(db, [
      {
        animeId: 401,
        title: 'Cast Show',
        airDate: '2019-01-01',
        endDate: '2019-03-01',
        episodes: [
          { id: 4001, file: true, watchedBy: [admin] },
          { id: 4002, file: true },
          { id: 4003 },
          { id: 4004, type: 'Special', number: 1, file: true },
          { id: 4005, type: 'Other', number: 1, file: true },
        ],
      },
      { animeId: 402, title: 'Cast Show 2', airDate: '2020-01-01', rating: 700 },
      { animeId: 403, title: 'Cast Show Zero', type: 'Movie', airDate: '2018-01-01' },
      { animeId: 405, title: 'Hidden Show', tags: [{ id: 99, name: 'ecchi' }] },
    ]);
    show = written.get(401)!.seriesId;
    sequel = written.get(402)!.seriesId;
    hidden = written.get(405)!.seriesId;
    for (const row of await db.selectFrom('episodes').select(['id', 'anidb_episode_id']).execute()) ep[row.anidb_episode_id] = row.id;
    await db
      .insertInto('anidb_characters')
      .values([
        { id: 500, name: 'Hero', gender: 'male', character_type: 'Character', description: 'The hero.', picture: '500.jpg' },
        { id: 501, name: 'Guild', gender: null, character_type: 'Organization', description: null, picture: null },
      ])
      .execute();
    await db
      .insertInto('anidb_creators')
      .values([
        { id: 600, name: 'Voice Person', picture: '600.jpg' },
        { id: 601, name: 'Studio X', picture: null },
        { id: 602, name: 'Dir Person', picture: null },
      ])
      .execute();
    await db
      .insertInto('anidb_anime_characters')
      .values([
        { anime_id: 401, character_id: 500, appearance: 'main character in', ordering: 0 },
        { anime_id: 401, character_id: 501, appearance: 'appears in', ordering: 1 },
      ])
      .execute();
    await db
      .insertInto('anidb_anime_staff')
      .values([
        { anime_id: 401, creator_id: 600, role: 'Seiyuu', character_id: 500, ordering: 0 },
        { anime_id: 401, creator_id: 601, role: 'Animation Work', character_id: null, ordering: 1 },
        { anime_id: 401, creator_id: 602, role: 'Direction', character_id: null, ordering: 2 },
      ])
      .execute();
    await db
      .insertInto('anidb_relations')
      .values([
        { anime_id: 401, related_anime_id: 402, relation_type: 'Sequel', related_title: 'Cast Show 2' },
        { anime_id: 401, related_anime_id: 9999, relation_type: 'Side Story', related_title: 'Far Away' },
        { anime_id: 403, related_anime_id: 401, relation_type: 'Sequel', related_title: 'Cast Show' },
      ])
      .execute();
    await db
      .insertInto('anidb_similar')
      .values({ anime_id: 401, similar_anime_id: 402, approval: 30, total: 40, title: 'Cast Show 2' })
      .execute();
    const now = new Date().toISOString();
    await db
      .insertInto('anidb_tags')
      .values([
        { id: 700, parent_id: null, name: 'source material', description: null, is_spoiler: 0, is_verified: 1, updated_at: now },
        { id: 701, parent_id: 700, name: 'manga', description: null, is_spoiler: 0, is_verified: 1, updated_at: now },
      ])
      .execute();
    await db
      .insertInto('anidb_anime_tags')
      .values([
        { anime_id: 401, tag_id: 701, weight: 0, is_local_spoiler: 0 },
        { anime_id: 402, tag_id: 700, weight: 0, is_local_spoiler: 0 },
      ])
      .execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists characters with voice actors, then staff, and filters by role', async () => {
    const res = await api('GET', `/api/v3/Series/${show}/Cast`);
    expect(res.statusCode, res.body).toBe(200);
    const roles = res.json();
    expect(roles.map((r: { RoleName: string; RoleDetails: string }) => [r.RoleName, r.RoleDetails])).toEqual([
      ['Actor', 'Main Character'],
      ['Actor', 'Appears In'],
      ['Studio', 'Animation Work'],
      ['Director', 'Direction'],
    ]);
    expect(roles[0].Character).toMatchObject({
      ID: 500,
      Name: 'Hero',
      Description: 'The hero.',
      Image: { Type: 'Character', Source: 'AniDB', ID: 500 },
    });
    expect(roles[0].Staff).toMatchObject({ ID: 600, Name: 'Voice Person', Type: 'Person', Image: { Type: 'Staff', ID: 600 } });
    expect(roles[1].Staff).toMatchObject({ ID: 0, Type: 'Unknown', Name: '' });
    expect(roles[2]).not.toHaveProperty('Character');
    const studios = (await api('GET', `/api/v3/Series/${show}/Cast?roleType=Studio`)).json();
    expect(studios.map((r: { Staff: { Name: string } }) => r.Staff.Name)).toEqual(['Studio X']);
    const actors = (await api('GET', `/api/v3/Series/${show}/Cast?roleType=Actor&roleType=Director`)).json();
    expect(actors).toHaveLength(3);
    expect((await api('GET', `/api/v3/Series/${show}/Cast?roleType=Painter`)).statusCode).toBe(400);
    expect((await api('GET', `/api/v3/Series/${hidden}/Cast`, undefined, viewerKey)).statusCode).toBe(403);
  });

  it('lists related anime in both directions and similar anime with their approval', async () => {
    const related = await api('GET', `/api/v3/Series/${show}/AniDB/Related`);
    expect(related.statusCode, related.body).toBe(200);
    expect(
      related
        .json()
        .map((a: { ID: number; Relation: string; ShokoID: number | null; Title: string }) => [
          a.ID,
          a.Relation,
          a.ShokoID !== null,
          a.Title,
        ]),
    ).toEqual([
      [402, 'Sequel', true, 'Cast Show 2'],
      [9999, 'SideStory', false, 'Far Away'],
      [403, 'Prequel', true, 'Cast Show Zero'],
    ]);
    expect(related.json()[0]).toMatchObject({ ShokoID: sequel, Type: 'TV', Rating: { Value: 700, MaxValue: 1000 } });
    expect(related.json()[1]).toMatchObject({ Type: 'Unknown' });
    expect(related.json()[1]).not.toHaveProperty('Rating');
    const similar = (await api('GET', `/api/v3/Series/${show}/AniDB/Similar`)).json();
    expect(similar).toEqual([
      expect.objectContaining({
        ID: 402,
        ShokoID: sequel,
        UserApproval: { Value: 75, MaxValue: 100, Source: 'AniDB', Votes: 40, Type: 'User Approval' },
      }),
    ]);
    expect((await api('GET', `/api/v3/Series/${hidden}/AniDB/Similar`, undefined, viewerKey)).statusCode).toBe(403);
    expect((await api('GET', '/api/v3/Series/99999/AniDB/Related')).statusCode).toBe(404);
  });

  it('lists relations as SeriesRelation, locally known ones under Relations', async () => {
    const all = (await api('GET', `/api/v3/Series/${show}/AniDB/Relations`)).json();
    expect(
      all.map((r: { IDs: { AniDB: number }; RelatedIDs: { AniDB: number }; Type: string }) => [r.IDs.AniDB, r.RelatedIDs.AniDB, r.Type]),
    ).toEqual([
      [401, 402, 'Sequel'],
      [401, 9999, 'SideStory'],
      [403, 401, 'Sequel'],
    ]);
    expect(all[0]).toEqual({
      IDs: { Shoko: show, AniDB: 401 },
      RelatedIDs: { Shoko: sequel, AniDB: 402 },
      Type: 'Sequel',
      Source: 'AniDB',
    });
    const local = (await api('GET', `/api/v3/Series/${show}/Relations`)).json();
    expect(local.map((r: { RelatedIDs: { AniDB: number } }) => r.RelatedIDs.AniDB)).toEqual([402, 401]);
  });

  it('picks the next-up episode per user and honours the include flags', async () => {
    const next = async (query = '', apiKey = key) => {
      const res = await api('GET', `/api/v3/Series/${show}/NextUpEpisode?${query}`, undefined, apiKey);
      return res.statusCode === 204 ? null : (res.json().IDs.AniDB as number);
    };
    expect(await next()).toBe(4002);
    expect(await next('', viewerKey)).toBe(4001);
    const withData = (await api('GET', `/api/v3/Series/${show}/NextUpEpisode?includeDataFrom=AniDB`)).json();
    expect(withData.AniDB).toMatchObject({ ID: 4002, EpisodeNumber: 2 });
    await api('POST', `/api/v3/Episode/${ep[4002]}/Watched/true`);
    expect(await next()).toBe(4003);
    expect(await next('includeMissing=false')).toBe(4004);
    expect(await next('includeMissing=false&includeOthers=true')).toBe(4005);
    expect(await next('includeMissing=false&includeSpecials=false')).toBeNull();
    expect(await next('includeMissing=false&includeSpecials=false&includeRewatching=true')).toBeNull();
    await api('POST', `/api/v3/Episode/${ep[4002]}/Watched/false`);
    await api('POST', `/api/v3/Episode/${ep[4001]}/Watched/false`);
    await api('POST', `/api/v3/Episode/${ep[4002]}/Watched/true`);
    expect(await next('includeRewatching=true')).toBe(4003);
    expect(await next('includeRewatching=true&includeMissing=false')).toBe(4004);
    const empty = await api('GET', `/api/v3/Series/${sequel}/NextUpEpisode`);
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
  });

  it('serves the WebUI series extras: runtime, first season, studios and source material', async () => {
    const res = await api('GET', `/api/v3/WebUI/Series/${show}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      RuntimeLength: '00:24:00',
      FirstAirSeason: 'Winter 2019',
      Studios: [{ ID: 601, Type: 'Company', Name: 'Studio X', AlternateName: '', Description: '', Image: null }],
      Producers: [],
      SourceMaterial: 'manga',
    });
    const plain = (await api('GET', `/api/v3/WebUI/Series/${sequel}`)).json();
    expect(plain).toMatchObject({ RuntimeLength: null, FirstAirSeason: 'Winter 2020', Studios: [], SourceMaterial: 'Original Work' });
    const zero = (await api('GET', `/api/v3/Series/AniDB/403`)).json();
    const movie = (await api('GET', `/api/v3/WebUI/Series/${zero.ShokoID}`)).json();
    expect(movie.FirstAirSeason).toBeNull();
    expect((await api('GET', `/api/v3/WebUI/Series/${hidden}`, undefined, viewerKey)).statusCode).toBe(403);
    expect((await api('GET', '/api/v3/WebUI/Series/99999')).statusCode).toBe(404);
  });

  it('answers WebUI/Series/{id}/Overview with each panel as its own route answers it, errors as they give them', async () => {
    const answer = async (url: string, apiKey: string) => {
      const res = await api('GET', url, undefined, apiKey);
      expect(res.statusCode, `${url}: ${res.body}`).toBeOneOf([200, 204]);
      return res.statusCode === 204 ? null : res.json();
    };
    const sameAsRoutes = async (seriesId: number, apiKey: string) => {
      const combined = await answer(`/api/v3/WebUI/Series/${seriesId}/Overview`, apiKey);
      const { IDs } = await answer(`/api/v3/Series/${seriesId}`, apiKey);
      const group = await api('GET', `/api/v3/Group/${IDs.ParentGroup}`, undefined, apiKey);
      expect(combined).toEqual({
        Extra: await answer(`/api/v3/WebUI/Series/${seriesId}`, apiKey),
        Tags: await answer(`/api/v3/Series/${seriesId}/Tags?onlyVerified=false`, apiKey),
        Group: group.statusCode === 200 ? group.json() : null,
        NextUpEpisode: await answer(`/api/v3/Series/${seriesId}/NextUpEpisode?includeDataFrom=AniDB`, apiKey),
        Related: await answer(`/api/v3/Series/${seriesId}/AniDB/Related`, apiKey),
        Similar: await answer(`/api/v3/Series/${seriesId}/AniDB/Similar`, apiKey),
        Cast: await answer(`/api/v3/Series/${seriesId}/Cast`, apiKey),
      });
      return { combined, groupStatus: group.statusCode };
    };
    const { combined: full } = await sameAsRoutes(show, key);
    expect(full.NextUpEpisode.AniDB.ID).toBeGreaterThan(0);
    expect([full.Related.length, full.Similar.length, full.Cast.length]).toEqual([3, 1, 4]);
    expect(full.Group.IDs.ID).toBeGreaterThan(0);
    expect((await sameAsRoutes(show, viewerKey)).combined.NextUpEpisode.AniDB.ID).toBe(4001);
    expect((await sameAsRoutes(sequel, key)).combined.NextUpEpisode).toBeNull();
    expect((await api('GET', `/api/v3/WebUI/Series/${hidden}/Overview`, undefined, viewerKey)).statusCode).toBe(403);
    expect((await api('GET', '/api/v3/WebUI/Series/99999/Overview')).statusCode).toBe(404);
    // A group holding a series the viewer may not see: Group/{id} refuses it, so the overview has no group.
    const moved = await api('PATCH', `/api/v3/Series/${hidden}/Move/${full.Group.IDs.ID}`);
    expect(moved.statusCode, moved.body).toBeLessThan(300);
    const refused = await sameAsRoutes(show, viewerKey);
    expect([refused.groupStatus, refused.combined.Group]).toEqual([403, null]);
    expect((await sameAsRoutes(show, key)).combined.Group.IDs.ID).toBe(full.Group.IDs.ID);
  });
});
