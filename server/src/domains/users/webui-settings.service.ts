import { USER_WEBUI_SETTINGS_MAX_BYTES, type UserWebUISettings, type UserWebUISettingsBody } from '@shoko-ts/contract';
import { validationError } from '../../http/problem.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { UserWebUISettingsStore } from './webui-settings.store.js';

/**
 * Each account's own console settings (issue 44). The server's WebUI_Settings are global and only admins may change
 * them; any account keeps its own copy here, starting from the server's until it saves one. The text is the console's:
 * the server checks only that it is a JSON object of bounded size, as it never reads it.
 */
export class UserWebUISettingsService {
  constructor(
    private readonly store: UserWebUISettingsStore,
    /** The server's WebUI_Settings text (display choices only, no credentials), the starting point of every account. */
    private readonly serverWebUISettings: () => string,
  ) {}

  async get(userId: number): Promise<UserWebUISettings> {
    const own = await this.store.find(userId);
    return own === undefined ? { WebUI_Settings: this.serverWebUISettings(), IsOwn: false } : { WebUI_Settings: own, IsOwn: true };
  }

  async save(userId: number, body: UserWebUISettingsBody): Promise<UserWebUISettings> {
    const text = body.WebUI_Settings;
    if (Buffer.byteLength(text, 'utf8') > USER_WEBUI_SETTINGS_MAX_BYTES)
      throw validationError('WebUI_Settings', `The console settings may take at most ${USER_WEBUI_SETTINGS_MAX_BYTES / 1024} kB.`);
    if (!isJsonObject(text)) throw validationError('WebUI_Settings', 'The console settings must be the JSON text of an object.');
    await this.store.save(userId, text);
    return { WebUI_Settings: text, IsOwn: true };
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

export function createUserWebUISettings(deps: { db: Kysely<Database>; serverWebUISettings: () => string }): UserWebUISettingsService {
  return new UserWebUISettingsService(new UserWebUISettingsStore(deps.db), deps.serverWebUISettings);
}
