import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from '../series/test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { keepCategory, keepUserTags, tagCategory, TagFilterBits } from './tag-filter.js';

/**
 * "Tag Town" (anime 301) has AniDB tags: action (weight 500), comedy (weight 300, local spoiler), an unverified tag,
 * and an internal tag below "maintenance tags". "Locked Room" (302) carries tag 99, restricted for the viewer.
 */
describe('series tags and user tags API', () => {
  let server: TestServer;
  let viewerKey: string;
  let town = 0;
  let locked = 0;

  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  const names = (res: { json(): unknown }) => (res.json() as Array<{ Name: string }>).map((t) => t.Name);

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, api } = setup);
    const viewer = setup.viewer;
    viewerKey = viewer.key;
    const db = server.services.db.kysely;
    const now = new Date().toISOString();
    await db
      .insertInto('anidb_tags')
      .values([
        { id: 1, parent_id: null, name: 'maintenance tags', description: null, is_spoiler: 0, is_verified: 1, updated_at: now },
        { id: 2, parent_id: 1, name: 'cast missing', description: null, is_spoiler: 0, is_verified: 1, updated_at: now },
        { id: 40, parent_id: null, name: 'hidden gem', description: 'Unverified.', is_spoiler: 0, is_verified: 0, updated_at: now },
      ])
      .execute();
    const written = await insertSeries(db, [
      {
        animeId: 301,
        title: 'Tag Town',
        tags: [
          { id: 10, name: 'action', weight: 500 },
          { id: 11, name: 'comedy', weight: 300 },
        ],
      },
      {
        animeId: 302,
        title: 'Locked Room',
        tags: [
          { id: 10, name: 'action' },
          { id: 99, name: 'ecchi' },
        ],
      },
    ]);
    town = written.get(301)!.seriesId;
    locked = written.get(302)!.seriesId;
    await db
      .insertInto('anidb_anime_tags')
      .values([
        { anime_id: 301, tag_id: 2, weight: 0, is_local_spoiler: 0 },
        { anime_id: 301, tag_id: 40, weight: 100, is_local_spoiler: 0 },
      ])
      .execute();
    await db.updateTable('anidb_anime_tags').set({ is_local_spoiler: 1 }).where('anime_id', '=', 301).where('tag_id', '=', 11).execute();
    await db.updateTable('anidb_tags').set({ description: 'Fights.' }).where('id', '=', 10).execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('classifies tags and applies the TagFilter flags', () => {
    expect(tagCategory(['maintenance tags', 'cast missing'])).toBe(TagFilterBits.AnidbInternal);
    expect(tagCategory(['source material', 'manga'])).toBe(TagFilterBits.Source);
    expect(keepCategory(1, TagFilterBits.AnidbInternal)).toBe(false);
    expect(keepCategory(1, TagFilterBits.Misc)).toBe(true);
    expect(keepCategory(1 + TagFilterBits.Invert, TagFilterBits.AnidbInternal)).toBe(true);
    expect(keepUserTags(0)).toBe(true);
    expect(keepUserTags(TagFilterBits.User)).toBe(false);
    expect(keepUserTags(TagFilterBits.User + TagFilterBits.Invert)).toBe(true);
  });

  it('lists AniDB tags of a series by weight with weight, local spoiler and description', async () => {
    const res = await api('GET', `/api/v3/Series/${town}/Tags`);
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res)).toEqual(['action', 'comedy', 'cast missing']);
    const [action, comedy] = res.json();
    expect(action).toMatchObject({
      ID: 10,
      Name: 'action',
      Weight: 500,
      IsLocalSpoiler: false,
      IsSpoiler: false,
      IsVerified: true,
      Description: 'Fights.',
      Source: 'AniDB',
    });
    expect(comedy).toMatchObject({ Weight: 300, IsLocalSpoiler: true });
    expect(comedy).not.toHaveProperty('Description');
    expect(names(await api('GET', `/api/v3/Series/${town}/Tags?filter=1`))).toEqual(['action', 'comedy']);
    expect(names(await api('GET', `/api/v3/Series/${town}/Tags?filter=AnidbInternal&onlyVerified=false&orderByName=true`))).toEqual([
      'action',
      'comedy',
      'hidden gem',
    ]);
    const short = (await api('GET', `/api/v3/Series/${town}/Tags?excludeDescriptions=true&includeCount=true&filter=1`)).json();
    expect(short[0]).not.toHaveProperty('Description');
    expect(short[0].Size).toBe(2);
    expect((await api('GET', `/api/v3/Series/${town}/Tags?filter=bogus`)).statusCode).toBe(400);
  });

  it('hides restricted series from the viewer', async () => {
    expect((await api('GET', `/api/v3/Series/${locked}/Tags`, undefined, viewerKey)).statusCode).toBe(403);
    expect((await api('GET', `/api/v3/Series/${locked}/Tags`)).statusCode).toBe(200);
    expect((await api('GET', '/api/v3/Series/99999/Tags')).statusCode).toBe(404);
  });

  it('creates, edits, lists, attaches, detaches and deletes user tags', async () => {
    const created = await api('POST', '/api/v3/Tag/User', { name: 'Rewatch', description: ' Worth it ' });
    expect(created.statusCode, created.body).toBe(200);
    const tag = created.json();
    expect(tag).toMatchObject({ Name: 'Rewatch', Description: 'Worth it', Source: 'User', ParentID: null, IsSpoiler: false });

    const blank = await api('POST', '/api/v3/Tag/User', { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.Name).toEqual(['Name must be set for new tags.']);
    const duplicate = await api('POST', '/api/v3/Tag/User', { Name: 'rewatch' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors).toHaveProperty('Name');
    expect((await api('POST', '/api/v3/Tag/User', { Name: 'Nope' }, viewerKey)).statusCode).toBe(403);
    const other = (await api('POST', '/api/v3/Tag/User', { Name: 'Favourite' })).json();

    const renamed = await api('PUT', `/api/v3/Tag/User/${tag.ID}`, { name: 'Rewatch later', description: null });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ Name: 'Rewatch later', Description: 'Worth it' });
    expect((await api('PUT', `/api/v3/Tag/User/${tag.ID}`, { name: 'favourite' })).statusCode).toBe(400);
    expect((await api('PUT', '/api/v3/Tag/User/9999', { name: 'x' })).statusCode).toBe(404);

    expect((await api('POST', `/api/v3/Series/${town}/Tags/User`, { IDs: [tag.ID] })).statusCode).toBe(201);
    expect((await api('POST', `/api/v3/Series/${town}/Tags/User`, { IDs: [tag.ID] })).statusCode).toBe(204);
    expect((await api('POST', `/api/v3/Series/${town}/Tags/User`, { IDs: [] })).statusCode).toBe(400);
    expect((await api('POST', `/api/v3/Series/${town}/Tags/User`, { IDs: [other.ID] }, viewerKey)).statusCode).toBe(403);

    const userTags = await api('GET', `/api/v3/Series/${town}/Tags/User`);
    expect(userTags.json().map((t: { ID: number }) => t.ID)).toEqual([tag.ID]);
    const all = await api('GET', `/api/v3/Series/${town}/Tags?filter=1`);
    expect(names(all)).toEqual(['Rewatch later', 'action', 'comedy']);

    const list = (await api('GET', '/api/v3/Tag/User?pageSize=0&includeCount=true')).json();
    expect(list.Total).toBe(2);
    expect(list.List.map((t: { Name: string; Size: number }) => [t.Name, t.Size])).toEqual([
      ['Favourite', 0],
      ['Rewatch later', 1],
    ]);
    expect((await api('GET', `/api/v3/Tag/User/${tag.ID}?includeCount=true`)).json().Size).toBe(1);

    expect((await api('DELETE', `/api/v3/Series/${town}/Tags/User`, { IDs: [tag.ID] })).statusCode).toBe(200);
    expect((await api('DELETE', `/api/v3/Series/${town}/Tags/User`, { IDs: [tag.ID] })).statusCode).toBe(204);
    await api('POST', `/api/v3/Series/${town}/Tags/User`, { IDs: [tag.ID] });

    expect((await api('DELETE', `/api/v3/Tag/User/${tag.ID}`)).statusCode).toBe(204);
    expect((await api('DELETE', `/api/v3/Tag/User/${tag.ID}`)).statusCode).toBe(404);
    const missing = await api('GET', `/api/v3/Tag/User/${tag.ID}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('No User Tag entry for the given tagID');
    expect((await api('GET', `/api/v3/Series/${town}/Tags/User`)).json()).toEqual([]);
  });
});
