import type { Kysely } from 'kysely';
import { AccountCache } from '../../db/account-cache.js';
import type { Database } from '../../db/schema.js';

export interface ApiKeyOwner {
  userId: number;
  username: string;
  isAdmin: boolean;
}

/** SQL for API keys. Keys are only ever handled as hashes here. */
export class AuthStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts = new AccountCache(),
  ) {}

  findOwnerByKeyHash(keyHash: string): Promise<ApiKeyOwner | undefined> {
    return this.accounts.read(`key:${keyHash}`, () => this.loadOwner(keyHash));
  }

  private async loadOwner(keyHash: string): Promise<ApiKeyOwner | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['users.id as userId', 'users.username as username', 'users.is_admin as isAdmin'])
      .where('api_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
    return row ? { userId: row.userId, username: row.username, isAdmin: row.isAdmin === 1 } : undefined;
  }

  async insertKey(userId: number, device: string, keyHash: string, now: string): Promise<void> {
    await this.accounts.written(() =>
      this.db.insertInto('api_keys').values({ user_id: userId, device, key_hash: keyHash, created_at: now, last_used_at: null }).execute(),
    );
  }

  /** Keeps the newest `keep` keys of a (user, device) pair and deletes the rest. */
  async pruneDeviceKeys(userId: number, device: string, keep: number): Promise<void> {
    const stale = await this.db
      .selectFrom('api_keys')
      .select('id')
      .where('user_id', '=', userId)
      .where('device', '=', device)
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1_000_000)
      .execute();
    if (stale.length === 0) return;
    await this.accounts.written(() =>
      this.db
        .deleteFrom('api_keys')
        .where(
          'id',
          'in',
          stale.map((r) => r.id),
        )
        .execute(),
    );
  }

  /** One row per (user, device); `userId` undefined lists every user's devices. */
  async listDevices(userId?: number): Promise<{ userId: number; username: string | null; device: string }[]> {
    let query = this.db
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.user_id as userId', 'users.username as username', 'api_keys.device as device'])
      .groupBy(['api_keys.user_id', 'users.username', 'api_keys.device'])
      .orderBy('api_keys.user_id')
      .orderBy('api_keys.device');
    if (userId !== undefined) query = query.where('api_keys.user_id', '=', userId);
    return query.execute();
  }

  async deleteDevice(userId: number, device: string): Promise<number> {
    const result = await this.accounts.written(() =>
      this.db.deleteFrom('api_keys').where('user_id', '=', userId).where('device', '=', device).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  async deleteByKeyHash(userId: number, keyHash: string): Promise<number> {
    const result = await this.accounts.written(() =>
      this.db.deleteFrom('api_keys').where('user_id', '=', userId).where('key_hash', '=', keyHash).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  async deleteAllForUser(userId: number): Promise<void> {
    await this.accounts.written(() => this.db.deleteFrom('api_keys').where('user_id', '=', userId).execute());
  }

  async touch(keyHash: string, now: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: now }).where('key_hash', '=', keyHash).execute();
  }
}
