/**
 * DESIGN — auth domain: logins and API keys (`/api/auth`, Shoko's v0 controller). Routes: auth.routes.ts; SQL:
 * auth.store.ts (keys, only ever as SHA-256 hashes); password hashing: the users domain's password.ts (salted scrypt).
 * It reads accounts through the users domain's UsersService; the http layer's auth hook turns each request's key
 * into a principal with `resolve`. Every login issues a new key (up to 20 per device); keys are never returned again.
 */
import { randomUUID } from 'node:crypto';
import type { ApikeyResult } from '@shoko-ts/contract';
import type { Principal } from '../../http/principal.js';
import { badRequest } from '../../http/problem.js';
import { hashPassword, needsRehash, verifyPassword, type UsersService } from '../users/index.js';
import type { AuthStore } from './auth.store.js';
import { hashApiKey } from './api-key.js';

/** How many keys one (user, device) pair may hold: each browser that logs in as `web-ui` gets its own. */
const KEYS_PER_DEVICE = 20;

const normalizeDevice = (device: string) => device.trim().toLowerCase();

export class AuthService {
  constructor(
    private readonly keys: AuthStore,
    private readonly users: Pick<UsersService, 'accountByName' | 'replacePasswordHash'>,
  ) {}

  /** Returns a new API key, or null when the username or password is wrong. */
  async login(username: string, password: string, device: string): Promise<string | null> {
    const user = await this.users.accountByName(username.trim());
    if (!user) {
      // Spend the same time as a real check so the response does not reveal which usernames exist.
      await verifyPassword(password, DUMMY_HASH);
      return null;
    }
    if (!(await verifyPassword(password, user.password_hash))) return null;
    // An account imported from Shoko still has Shoko's unsalted hash: its first login stores the password our way.
    if (needsRehash(user.password_hash)) await this.users.replacePasswordHash(user.id, await hashPassword(password));
    return this.issueKey(user.id, device);
  }

  /**
   * Shoko hands back the existing key of a (user, device) pair; we store only hashes, so every login gets a
   * fresh key and older keys of the pair stay valid until pruned (two browsers can both be logged in).
   */
  async issueKey(userId: number, device: string): Promise<string> {
    const key = randomUUID();
    const deviceName = normalizeDevice(device);
    await this.keys.insertKey(userId, deviceName, hashApiKey(key), new Date().toISOString());
    await this.keys.pruneDeviceKeys(userId, deviceName, KEYS_PER_DEVICE);
    return key;
  }

  async resolve(apiKey: string): Promise<Principal | null> {
    const key = apiKey.trim();
    if (!key) return null;
    const owner = await this.keys.findOwnerByKeyHash(hashApiKey(key));
    return owner ? { kind: 'user', userId: owner.userId, username: owner.username, isAdmin: owner.isAdmin } : null;
  }

  /**
   * Shoko lists every user's keys to admins; we list only the caller's own devices for everyone, so one
   * account never learns another's device names.
   */
  async listKeys(userId: number): Promise<ApikeyResult[]> {
    const rows = await this.keys.listDevices(userId);
    return rows.map((r) => ({ UserID: r.userId, Username: r.username, Device: r.device }));
  }

  /**
   * Revokes by device name of the caller, or by the raw key itself (which proves possession). Shoko allows this
   * anonymously for any device; we require the caller's key for device names.
   */
  async revoke(principal: Principal | null, value: unknown): Promise<void> {
    if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) {
      throw badRequest('Must provide an apikey or device name to delete');
    }
    const text = String(value).trim();
    // Only the caller's own keys: a key or device name of another user is "not found", as if it did not exist.
    if (principal?.kind !== 'user') throw badRequest('Could not find apikey or device name to delete');
    let deleted = await this.keys.deleteByKeyHash(principal.userId, hashApiKey(text));
    if (deleted === 0) deleted = await this.keys.deleteDevice(principal.userId, normalizeDevice(text));
    if (deleted === 0) throw badRequest('Could not find apikey or device name to delete');
  }

  revokeAll(userId: number): Promise<void> {
    return this.keys.deleteAllForUser(userId);
  }
}

// scrypt hash of a random throwaway password, used only to equalise timing for unknown usernames.
const DUMMY_HASH = 'scrypt$16384$8$1$c2hva28tdHMtZHVtbXktc2FsdA==$Gq3vQm3f1dY0vYp3qJ7q1Qy9X8nQw0k6l5mV2xR1sT4=';
