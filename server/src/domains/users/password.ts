import { randomBytes, scrypt as scryptCallback, timingSafeEqual, createHash } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

const COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

/** Salted scrypt, stored as `scrypt$N$r$p$<salt b64>$<hash b64>` so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { N: COST, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), hash.toString('base64')].join('$');
}

/**
 * Shoko Server's own password hash (unsalted SHA-512, upper-case hex), held only by accounts imported from Shoko until
 * their first login, which replaces it with scrypt (`needsRehash`).
 */
const SHOKO_SHA512 = 'shoko-sha512';

export const shokoPasswordHash = (sha512Hex: string): string => `${SHOKO_SHA512}$${sha512Hex.trim().toUpperCase()}`;

export const needsRehash = (stored: string): boolean => !stored.startsWith('scrypt$');

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith(`${SHOKO_SHA512}$`)) {
    const expected = Buffer.from(stored.slice(SHOKO_SHA512.length + 1), 'hex');
    const actual = createHash('sha512').update(password, 'utf8').digest();
    return expected.length === actual.length && timingSafeEqual(actual, expected);
  }
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}
