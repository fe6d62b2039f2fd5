import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AccountCache } from '../../db/account-cache.js';
import type { Database } from '../../db/schema.js';
import { describeBlock, LoginThrottle } from '../../http/login-throttle.js';
import { AuthService } from './auth.service.js';
import { AuthStore } from './auth.store.js';

export interface AuthDomain {
  service: AuthService;
  /** Failed password checks per user name and client address (login, password change, AniDB test login). */
  loginThrottle: LoginThrottle;
}

/** Builds logins and API keys over the accounts, and the throttle of failed password checks. */
export function createAuthDomain(deps: {
  db: Kysely<Database>;
  accounts: AccountCache;
  users: ConstructorParameters<typeof AuthService>[1];
  logger: Logger;
}): AuthDomain {
  const service = new AuthService(new AuthStore(deps.db, deps.accounts), deps.users);
  const loginThrottle = new LoginThrottle({}, (notice) => deps.logger.warn(describeBlock(notice)));
  return { service, loginThrottle };
}
