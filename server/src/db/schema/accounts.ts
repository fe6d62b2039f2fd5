import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  password_hash: string;
  is_admin: Flag;
  anidb_sync: Flag;
  trakt_sync: Flag;
  plex_usernames: string;
  plex_token: string | null;
  avatar: string;
  /** JSON array of AniDB tag ids hidden from this user. */
  restricted_tags: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  device: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** 0057: an account's own console settings (JSON text of an object), apart from the server's global WebUI_Settings. */
export interface UserWebUISettingsTable {
  user_id: number;
  settings: string;
  updated_at: string;
}

export interface AccountTables {
  users: UsersTable;
  api_keys: ApiKeysTable;
  user_webui_settings: UserWebUISettingsTable;
}
