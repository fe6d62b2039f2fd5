import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { TagsService } from './tags.service.js';
import { TagsStore } from './tags.store.js';

export interface TagsDomain {
  service: TagsService;
  /** The ancestors of AniDB tags (groups answer tag filters with them). */
  ancestry(tagIds: number[]): ReturnType<TagsStore['ancestry']>;
}

/** Builds series tags, user tags and the AniDB tag list. */
export function createTagsDomain(deps: {
  db: Kysely<Database>;
  access: ConstructorParameters<typeof TagsService>[0]['access'];
}): TagsDomain {
  const store = new TagsStore(deps.db);
  return { service: new TagsService({ store, access: deps.access }), ancestry: (tagIds) => store.ancestry(tagIds) };
}
