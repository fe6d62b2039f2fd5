import { Type } from '@sinclair/typebox';
import type { Tag } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { validationError } from '../../http/problem.js';
import { isAdminPrincipal } from '../../http/principal.js';
import type { BrowseStore } from '../collection/browse.store.js';
import { keepCategory, tagCategory, type TagsStore } from '../series/tags.store.js';

const Query = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  filter: Type.Optional(Type.String()),
  excludeDescriptions: Type.Boolean({ default: false }),
  onlyVerified: Type.Boolean({ default: true }),
  includeCount: Type.Boolean({ default: false }),
});

/**
 * `GET /api/v3/Tag/AniDB` (collection.md §8): every AniDB tag name once, ordered by name. The user-management page
 * picks tag restrictions from it; a restricted non-admin does not see the tags hidden from them (an admin always sees
 * every tag, so restricting one's own account does not remove tags from the picker).
 */
export function registerAniDBTagListRoute(app: App, deps: { browse: BrowseStore; tags: TagsStore }) {
  const { browse, tags } = deps;
  app.get('/api/v3/Tag/AniDB', { schema: { tags: ['Tag'], querystring: Query } }, async (request) => {
    const q = request.query;
    const filter = q.filter === undefined || q.filter === '' ? 0 : Number(q.filter);
    if (!Number.isSafeInteger(filter) || filter < 0) throw validationError('filter', `The value '${q.filter}' is not valid for filter.`);
    const principal = request.principal;
    const viewer = await browse.viewer(principal?.kind === 'user' && !isAdminPrincipal(principal) ? principal.userId : null);
    const hidden = new Set(viewer.restrictedTags);

    const rows = await browse.kysely
      .selectFrom('anidb_tags')
      .select(['id', 'parent_id', 'name', 'description', 'is_spoiler', 'is_verified', 'updated_at'])
      .orderBy('name')
      .orderBy('id')
      .execute();
    const ancestry = filter ? await tags.ancestry(rows.map((r) => r.id)) : null;
    const seen = new Set<string>();
    const kept = rows.filter((r) => {
      const key = r.name.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      if (hidden.has(r.id) || (q.onlyVerified && !r.is_verified)) return false;
      return !ancestry || keepCategory(filter, tagCategory(ancestry.get(r.id) ?? [r.name]));
    });
    const page = q.pageSize === 0 ? kept : kept.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    const counts = q.includeCount
      ? await animeCounts(
          browse,
          page.map((r) => r.id),
        )
      : new Map<number, number>();
    const list = page.map((r) => {
      const tag: Tag = { ID: r.id, ParentID: r.parent_id, Name: r.name, IsSpoiler: !!r.is_spoiler, Source: 'AniDB' };
      if (!q.excludeDescriptions && r.description !== null) tag.Description = r.description;
      tag.IsVerified = !!r.is_verified;
      if (q.includeCount) tag.Size = counts.get(r.id) ?? 0;
      tag.LastUpdated = new Date(r.updated_at).toISOString();
      return tag;
    });
    return { Total: kept.length, List: list };
  });
}

async function animeCounts(browse: BrowseStore, tagIds: number[]): Promise<Map<number, number>> {
  if (!tagIds.length) return new Map();
  const rows = await browse.kysely
    .selectFrom('anidb_anime_tags')
    .select((eb) => ['tag_id', eb.fn.countAll<string | number>().as('n')])
    .where('tag_id', 'in', tagIds)
    .groupBy('tag_id')
    .execute();
  return new Map(rows.map((r) => [r.tag_id, Number(r.n)]));
}
