import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ActionsService, type ActionsDeps } from './actions.service.js';
import { ActionsStore } from './actions.store.js';

/** Builds the server actions of `GET Action/<Name>` over the services they queue work on. */
export function createActionsDomain(deps: { db: Kysely<Database> } & Omit<ActionsDeps, 'store'>): ActionsService {
  const { db, ...rest } = deps;
  return new ActionsService({ store: new ActionsStore(db), ...rest });
}
