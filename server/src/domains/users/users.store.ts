import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { AccountCache } from '../../db/account-cache.js';
import type { Database, UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserChanges = Updateable<UsersTable>;

/** SQL for user accounts. */
export class UsersStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts = new AccountCache(),
  ) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('is_admin', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
  }

  async insert(row: NewUserRow): Promise<UserRow> {
    const { id } = await this.accounts.written(() => this.db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow());
    return (await this.findById(id))!;
  }

  async update(id: number, changes: UserChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.accounts.written(() => this.db.updateTable('users').set(changes).where('id', '=', id).execute());
  }

  async delete(id: number): Promise<void> {
    await this.accounts.written(() => this.db.deleteFrom('users').where('id', '=', id).execute());
  }
}

/** Usernames are unique regardless of case. */
export const usernameKey = (username: string) => username.trim().toLowerCase();
