import { AnidbTagListQuery, AnidbTagQuery, TagParams } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { isAdminPrincipal } from '../../http/principal.js';
import type { TagsService } from './tags.service.js';

/**
 * `GET /api/v3/Tag/AniDB` (collection.md §8): every AniDB tag name once, ordered by name. The user-management page
 * picks tag restrictions from it; a restricted non-admin does not see the tags hidden from them (an admin always sees
 * every tag, so restricting one's own account does not remove tags from the picker).
 */
export function registerAniDBTagListRoute(app: App, deps: { tags: TagsService }) {
  app.get('/api/v3/Tag/AniDB', { schema: { tags: ['Tag'], querystring: AnidbTagListQuery } }, (request) => {
    const principal = request.principal;
    return deps.tags.anidbTagPage(request.query, principal?.kind === 'user' && !isAdminPrincipal(principal) ? principal.userId : null);
  });

  app.get('/api/v3/Tag/AniDB/:tagID', { schema: { tags: ['Tag'], params: TagParams, querystring: AnidbTagQuery } }, (request) => {
    const principal = request.principal;
    const viewer = principal?.kind === 'user' && !isAdminPrincipal(principal) ? principal.userId : null;
    return deps.tags.anidbTag(request.params.tagID, request.query, viewer);
  });
}
