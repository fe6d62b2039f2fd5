import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from '../series/test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { keepCategory, keepUserTags, tagCategory, TagFilterBits } from './tag-filter.js';
import { STARTER_CUSTOM_TAGS } from '../../db/collection-defaults.js';

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

    // The two made here, in name order among the starter tags a new collection has.
    const list = (await api('GET', '/api/v3/Tag/User?pageSize=0&includeCount=true')).json();
    expect(list.Total).toBe(2 + STARTER_CUSTOM_TAGS.length);
    expect(list.List.map((t: { Name: string; Size: number }) => [t.Name, t.Size])).toEqual([
      ['Dropped', 0],
      ['Favourite', 0],
      ['Ongoing', 0],
      ['Pinned', 0],
      ['Rewatch later', 1],
      ['Waiting for Blu-ray Completion', 0],
      ['Waiting for Series Completion', 0],
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

  it('patches a user tag with JSON Patch (admin only; only patched fields change)', async () => {
    const tag = (await api('POST', '/api/v3/Tag/User', { Name: 'Patchable', Description: 'Before' })).json();
    let res = await api('PATCH', `/api/v3/Tag/User/${tag.ID}`, [{ op: 'replace', path: '/name', value: ' Patched ' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ID: tag.ID, Name: 'Patched', Description: 'Before', Source: 'User' });
    res = await api('PATCH', `/api/v3/Tag/User/${tag.ID}?includeCount=true`, [{ op: 'replace', path: '/Description', value: ' After ' }]);
    expect(res.json()).toMatchObject({ Name: 'Patched', Description: 'After', Size: 0 });

    const refused = await api('PATCH', `/api/v3/Tag/User/${tag.ID}`, [{ op: 'replace', path: '/Name', value: 'Viewer' }], viewerKey);
    expect(refused.statusCode).toBe(403);
    res = await api('PATCH', `/api/v3/Tag/User/${tag.ID}`, [{ op: 'replace', path: '/Name', value: 7 }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Name']);
    res = await api('PATCH', `/api/v3/Tag/User/${tag.ID}`, [{ op: 'replace', path: '/Colour', value: 'red' }]);
    expect(res.statusCode).toBe(400);
    const dupe = (await api('POST', '/api/v3/Tag/User', { Name: 'Taken' })).json();
    res = await api('PATCH', `/api/v3/Tag/User/${tag.ID}`, [{ op: 'replace', path: '/Name', value: 'taken' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('Name');
    expect((await api('GET', `/api/v3/Tag/User/${tag.ID}`)).json().Name).toBe('Patched');
    res = await api('PATCH', '/api/v3/Tag/User/9999', [{ op: 'replace', path: '/Name', value: 'x' }]);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('No User Tag entry for the given tagID');
    expect((await api('PATCH', '/api/v3/Tag/User/abc', [])).statusCode).toBe(400);
    await api('DELETE', `/api/v3/Tag/User/${tag.ID}`);
    await api('DELETE', `/api/v3/Tag/User/${dupe.ID}`);
  });

  it('answers one AniDB tag by id, hiding a restricted tag from the restricted viewer', async () => {
    let res = await api('GET', '/api/v3/Tag/AniDB/10');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ID: 10, ParentID: null, Name: 'action', Description: 'Fights.', IsVerified: true, Source: 'AniDB' });
    expect(res.json()).not.toHaveProperty('Size');
    res = await api('GET', '/api/v3/Tag/AniDB/10?excludeDescription=true&includeCount=true');
    expect(res.json()).not.toHaveProperty('Description');
    expect(res.json().Size).toBe(2);
    expect((await api('GET', '/api/v3/Tag/AniDB/2')).json()).toMatchObject({ ID: 2, ParentID: 1, Name: 'cast missing' });

    expect((await api('GET', '/api/v3/Tag/AniDB/10', undefined, viewerKey)).statusCode).toBe(200);
    const hidden = await api('GET', '/api/v3/Tag/AniDB/99', undefined, viewerKey);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.body).toBe('Accessing Tag is not allowed for the current user');
    expect((await api('GET', '/api/v3/Tag/AniDB/99')).statusCode).toBe(200);
    const missing = await api('GET', '/api/v3/Tag/AniDB/777');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('No AniDB Tag entry for the given tagID');
    res = await api('GET', '/api/v3/Tag/AniDB/0');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('tagID');
  });
});
