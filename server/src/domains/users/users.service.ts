/**
 * DESIGN — users domain: accounts (`/api/v3/User*`): list, create, edit, delete, change password, the caller's own
 * record, avatars (avatar.ts) and tag restrictions. Routes: users.routes.ts; SQL: users.store.ts. Passwords are hashed
 * by password.ts (the auth domain verifies logins with it), and a password change may revoke the user's keys through
 * the auth domain's revokeAll, given at wiring. The AniDB
 * tag list the restrictions pick from belongs to the tags domain.
 */
import { CreateOrUpdateUserBody, type ChangePasswordBody, type CreateUserBody, type User } from '@shoko-ts/contract';
import { Value } from '@sinclair/typebox/value';
import { applyPatch } from '../../http/json-patch.js';
import { FieldErrorCollector, notFound, validationError } from '../../http/problem.js';
import { hashPassword } from './password.js';
import { checkAvatar } from './avatar.js';
import { usernameKey, type UserChanges, type UserRow, type UsersStore } from './users.store.js';

export const USER_NOT_FOUND = "An user by the given `userID` doesn't exist.";

export function toUserDto(row: UserRow): User {
  const sites: User['CommunitySites'] = [];
  if (row.anidb_sync) sites.push('AniDB');
  if (row.trakt_sync) sites.push('Trakt');
  if (row.plex_token) sites.push('Plex');
  return {
    ID: row.id,
    Username: row.username,
    IsAdmin: row.is_admin === 1,
    CommunitySites: sites,
    RestrictedTags: parseTagIds(row.restricted_tags),
    Avatar: row.avatar,
    PlexUsernames: row.plex_usernames,
  };
}

const parseTagIds = (json: string): number[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
};

export class UsersService {
  constructor(
    private readonly users: UsersStore,
    /** The auth domain's key revocation (auth reads accounts, not back). */
    private readonly auth: { revokeAll(userId: number): Promise<unknown> },
  ) {}

  /** The account a login names (the stored row, password hash included), or undefined. */
  accountByName(username: string): Promise<UserRow | undefined> {
    return this.users.findByUsername(username);
  }

  /** Stores a new password hash as it is (a login's rehash of a password kept in an older scheme). */
  replacePasswordHash(id: number, passwordHash: string): Promise<void> {
    return this.users.update(id, { password_hash: passwordHash });
  }

  async hasAccounts(): Promise<boolean> {
    return (await this.users.count()) > 0;
  }

  /** The first start's admin account, from the first-run credentials. */
  async createFirstAdmin(username: string, password: string): Promise<void> {
    await this.users.insert({
      username,
      username_key: usernameKey(username),
      password_hash: await hashPassword(password),
      is_admin: 1,
      anidb_sync: 1,
      trakt_sync: 1,
      plex_usernames: '',
      plex_token: null,
      avatar: '',
      restricted_tags: '[]',
      created_at: new Date().toISOString(),
    });
  }

  async list(): Promise<User[]> {
    return (await this.users.list()).map(toUserDto);
  }

  async get(id: number): Promise<User> {
    return toUserDto(await this.require(id));
  }

  async create(body: CreateUserBody, callerIsAdmin: boolean): Promise<User> {
    const errors = new FieldErrorCollector();
    if (body.Password === undefined || body.Password === null) errors.add('Password', 'Password is required');
    if (body.Username === undefined || body.Username === null) errors.add('Username', 'A new user must have a username set.');
    const changes = await this.collectChanges(null, body, callerIsAdmin, errors);
    errors.throwIfAny();
    const row = await this.users.insert({
      username: changes.username!,
      username_key: changes.username_key!,
      password_hash: await hashPassword(body.Password),
      is_admin: changes.is_admin ?? 0,
      anidb_sync: changes.anidb_sync ?? 0,
      trakt_sync: changes.trakt_sync ?? 0,
      plex_usernames: changes.plex_usernames ?? '',
      plex_token: null,
      avatar: changes.avatar ?? '',
      restricted_tags: changes.restricted_tags ?? '[]',
      created_at: new Date().toISOString(),
    });
    return toUserDto(row);
  }

  async update(id: number, body: CreateOrUpdateUserBody, callerIsAdmin: boolean): Promise<User> {
    const current = await this.require(id);
    const errors = new FieldErrorCollector();
    const changes = await this.collectChanges(current, body, callerIsAdmin, errors);
    errors.throwIfAny();
    await this.users.update(id, changes);
    return this.get(id);
  }

  /**
   * `PATCH User/{id|Current}`: the operations apply to an empty CreateOrUpdateUserBody (every field null, i.e.
   * "unchanged"), then the result goes through the same rules as PUT with the caller's rights.
   */
  async patch(id: number, operations: unknown, callerIsAdmin: boolean): Promise<User> {
    await this.require(id);
    const empty: Record<keyof CreateOrUpdateUserBody, null> = {
      Username: null,
      IsAdmin: null,
      CommunitySites: null,
      RestrictedTags: null,
      Avatar: null,
      PlexUsernames: null,
    };
    const patched = applyPatch<Record<string, unknown>>(empty, operations, 'User');
    const errors = new FieldErrorCollector();
    for (const [field, value] of Object.entries(patched)) {
      const schema = CreateOrUpdateUserBody.properties[field as keyof CreateOrUpdateUserBody];
      if (!Value.Check(schema, value)) errors.add(field, `The value of ${field} is not valid.`);
    }
    errors.throwIfAny();
    return this.update(id, patched as CreateOrUpdateUserBody, callerIsAdmin);
  }

  async delete(id: number, callerId: number | null): Promise<void> {
    const target = await this.require(id);
    if (callerId === id) throw validationError('userID', 'You cannot delete your own account.');
    if (target.is_admin && (await this.users.countAdmins()) <= 1) {
      throw validationError('IsAdmin', 'There must be at least one admin user.');
    }
    await this.auth.revokeAll(id);
    await this.users.delete(id);
  }

  async changePassword(id: number, body: ChangePasswordBody): Promise<void> {
    await this.require(id);
    if (body.Password === undefined || body.Password === null) throw validationError('Password', 'Password is required');
    await this.users.update(id, { password_hash: await hashPassword(body.Password) });
    if (body.RevokeAPIKeys ?? true) await this.auth.revokeAll(id);
  }

  private async require(id: number): Promise<UserRow> {
    const row = await this.users.findById(id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  /** Applies Shoko's merge rules: null/omitted leaves a field unchanged; admin-only fields need an admin caller. */
  private async collectChanges(
    current: UserRow | null,
    body: CreateOrUpdateUserBody,
    callerIsAdmin: boolean,
    errors: FieldErrorCollector,
  ): Promise<UserChanges> {
    const changes: UserChanges = {};
    if (body.Username !== undefined && body.Username !== null) {
      const username = body.Username.trim();
      if (!username) {
        errors.add('Username', 'The username cannot be empty.');
      } else if (username.length > 128) {
        errors.add('Username', 'The username may be at most 128 characters.');
      } else {
        const taken = await this.users.findByUsername(username);
        if (taken && taken.id !== current?.id) errors.add('Username', 'The username is unavailable.');
        changes.username = username;
        changes.username_key = usernameKey(username);
      }
    }
    if (body.IsAdmin !== undefined && body.IsAdmin !== null && body.IsAdmin !== (current?.is_admin === 1)) {
      if (!callerIsAdmin) {
        errors.add('IsAdmin', 'Only admins are allowed to change the admin status of users.');
      } else if (current?.is_admin === 1 && !body.IsAdmin && (await this.users.countAdmins()) <= 1) {
        errors.add('IsAdmin', 'There must be at least one admin user.');
      } else {
        changes.is_admin = body.IsAdmin ? 1 : 0;
      }
    }
    if (body.CommunitySites !== undefined && body.CommunitySites !== null) {
      if (!callerIsAdmin) {
        errors.add('CommunitySites', 'Only admins are allowed to change the community sites for users.');
      } else {
        const sites = new Set(body.CommunitySites.map((s) => s.toLowerCase()));
        changes.anidb_sync = sites.has('anidb') ? 1 : 0;
        changes.trakt_sync = sites.has('trakt') ? 1 : 0;
      }
    }
    if (body.RestrictedTags !== undefined && body.RestrictedTags !== null) {
      if (!callerIsAdmin) {
        errors.add('RestrictedTags', 'Only admins are allowed to change the restricted tags for users.');
      } else {
        changes.restricted_tags = JSON.stringify([...new Set(body.RestrictedTags)]);
      }
    }
    if (body.Avatar !== undefined && body.Avatar !== null) {
      if (!body.Avatar.trim()) {
        changes.avatar = '';
      } else {
        const avatar = checkAvatar(body.Avatar);
        if (avatar.ok) changes.avatar = avatar.dataUrl;
        else errors.add('Avatar', avatar.message);
      }
    }
    if (body.PlexUsernames !== undefined && body.PlexUsernames !== null) {
      changes.plex_usernames = body.PlexUsernames.trim();
    }
    return changes;
  }
}
