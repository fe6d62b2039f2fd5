import { hashApiKey } from '../auth/index.js';
import { hashPassword, shokoPasswordHash } from '../users/index.js';
import { checkAvatar, usernameKey } from '../users/index.js';
import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import type { MapContext } from './map-context.js';
import { flag, text } from './shoko-values.js';

/**
 * Users and their API keys. Ids are kept, so every id a client stored still names the same account; passwords keep
 * Shoko's hash until the first login (password.ts); keys are stored hashed, as ours are, and go on working unchanged.
 */
export async function mapAccounts(ctx: MapContext): Promise<void> {
  const { shoko, plan, report, ids } = ctx;
  const rows = shoko.all('JMMUser', [
    'JMMUserID',
    'Username',
    'Password',
    'IsAdmin',
    'IsAniDBUser',
    'IsTraktUser',
    'HideCategories',
    'PlexUsers',
    'PlexToken',
    'AvatarImageBlob',
    'AvatarImageMetadata',
  ]);
  const users = report.kind('Users', rows.length);
  const avatars = report.kind('User avatars', rows.filter((r) => r.AvatarImageBlob).length);
  const names = new Set<string>();
  const out: Array<RowOf<'users'>> = [];
  for (const row of rows) {
    const id = Number(row.JMMUserID);
    const username = text(row.Username).trim();
    if (!username) {
      users.skipped('it has no user name', id);
      continue;
    }
    if (names.has(usernameKey(username))) {
      users.skipped('another user has the same name (names are compared without case)', username);
      continue;
    }
    names.add(usernameKey(username));
    const shokoHash = text(row.Password).trim();
    const hidden = restrictedTags(ctx, text(row.HideCategories), username);
    out.push({
      id,
      username,
      username_key: usernameKey(username),
      // Shoko stores '' for an empty password; that one is hashed our way at once.
      password_hash: shokoHash ? shokoPasswordHash(shokoHash) : await hashPassword(''),
      is_admin: flag(row.IsAdmin),
      anidb_sync: flag(row.IsAniDBUser),
      trakt_sync: flag(row.IsTraktUser),
      plex_usernames: text(row.PlexUsers).trim(),
      plex_token: text(row.PlexToken).trim() || null,
      avatar: avatarOf(row, avatars, username),
      restricted_tags: JSON.stringify(hidden),
      created_at: ctx.now,
    });
    ids.users.add(id);
    users.took();
  }
  if (!out.some((u) => u.is_admin)) report.block('no imported user is an administrator; make one an admin in Shoko first.');
  plan.add('users', out);

  const tokenRows = shoko.all('AuthTokens', ['AuthID', 'UserID', 'DeviceName', 'Token']);
  const keys = report.kind('API keys', tokenRows.length);
  plan.add(
    'api_keys',
    keepRows(keys, tokenRows, {
      key: (row) => text(row.Token).trim(),
      refuse: (row, token) => (!ids.users.has(Number(row.UserID)) ? 'its user was not imported' : !token ? 'it is empty' : undefined),
      duplicate: 'duplicate key',
      example: (row) => Number(row.AuthID),
      map: (row, token) => ({
        user_id: Number(row.UserID),
        device: text(row.DeviceName).trim().toLowerCase() || 'unknown',
        key_hash: hashApiKey(token),
        created_at: ctx.now,
        last_used_at: null,
      }),
    }),
  );
}

/** Shoko hides tags from a user by name (comma separated); we by AniDB tag id. */
function restrictedTags(ctx: MapContext, names: string, username: string): number[] {
  const ids = new Set<number>();
  const unknown: string[] = [];
  for (const name of names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)) {
    const id = ctx.ids.tagIdsByName.get(name.toLowerCase());
    if (id === undefined) unknown.push(name);
    else ids.add(id);
  }
  if (unknown.length)
    ctx.report.note(
      `User "${username}": hidden tag(s) ${unknown.map((n) => `"${n}"`).join(', ')} are not AniDB tags of this collection and were left out.`,
    );
  return [...ids];
}

function avatarOf(row: Record<string, unknown>, tally: ReturnType<MapContext['report']['kind']>, username: string): string {
  const blob = row.AvatarImageBlob as Uint8Array | null;
  if (!blob || !blob.length) return '';
  let contentType = '';
  try {
    contentType = String((JSON.parse(text(row.AvatarImageMetadata)) as { ContentType?: string }).ContentType ?? '');
  } catch {
    contentType = '';
  }
  const base64 = Buffer.from(blob).toString('base64');
  // The metadata's content type first; an image whose type was not recorded is recognised by its header.
  const candidates = [...new Set([contentType, 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp'].filter(Boolean))];
  let message = '';
  for (const type of candidates) {
    const avatar = checkAvatar(`data:${type};base64,${base64}`);
    if (avatar.ok) {
      tally.took();
      return avatar.dataUrl;
    }
    message ||= avatar.message;
  }
  tally.skipped(message, username);
  return '';
}
