// Tags: AniDB tags of series, custom tags and the tag tree.
// This is its public face: what other domains and the wiring may use of it.
export { TagFilterBits, keepCategory, keepUserTags, tagCategory } from './tag-filter.js';
export { TagsService } from './tags.service.js';
export { createTagsDomain } from './tags.wiring.js';
export type { TagsDomain } from './tags.wiring.js';
export { registerAniDBTagListRoute } from './anidb-tags.routes.js';
export { registerTagRoutes } from './tags.routes.js';
