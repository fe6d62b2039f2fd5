import type { Kysely } from 'kysely';
import type { AccountCache } from '../../db/account-cache.js';
import type { Database } from '../../db/schema.js';
import { UsersService } from './users.service.js';
import { UsersStore } from './users.store.js';

export interface UsersDomain {
  store: UsersStore;
  service: UsersService;
}

/** Builds the accounts: their store (writes clear the shared account cache) and the users service. */
export function createUsersDomain(deps: {
  db: Kysely<Database>;
  accounts: AccountCache;
  /** The auth domain's revocation of every key of a user. */
  revokeAll(userId: number): Promise<unknown>;
}): UsersDomain {
  const store = new UsersStore(deps.db, deps.accounts);
  return { store, service: new UsersService(store, { revokeAll: deps.revokeAll }) };
}
