import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ServerSettings } from '@shoko-ts/contract';
import { convertValue, isPlainObject, type ObjectKind } from './settings.schema.js';

export const SETTINGS_FILE = 'settings-server.json';

/**
 * Reads and writes `<home>/settings-server.json`. Writes go to a temporary file that is flushed and renamed over the
 * old one, so a crash mid-save leaves either the old or the new settings, never half of each.
 */
export class SettingsStore {
  readonly path: string;
  /** Saves run one after another: they share the temporary file name. */
  private saving: Promise<void> = Promise.resolve();

  constructor(home: string) {
    this.path = join(home, SETTINGS_FILE);
  }

  /** The stored settings laid over `defaults` (keys added in newer versions get their default), or null if none. */
  async load(defaults: ServerSettings, schema: ObjectKind): Promise<ServerSettings | null> {
    await this.removeLeftovers();
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const stored = JSON.parse(text) as unknown;
    if (!isPlainObject(stored)) throw new Error(`${this.path} does not hold a settings object`);
    return overlay(schema, defaults as unknown as Record<string, unknown>, stored) as unknown as ServerSettings;
  }

  save(settings: ServerSettings): Promise<void> {
    const next = this.saving.then(() => this.write(settings));
    this.saving = next.catch(() => undefined);
    return next;
  }

  /** Temporary files of saves cut short by a crash; the settings file itself is always whole. */
  private async removeLeftovers(): Promise<void> {
    const dir = dirname(this.path);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.startsWith(`${SETTINGS_FILE}.`) && n.endsWith('.tmp')))
      await unlink(join(dir, name)).catch(() => undefined);
  }

  private async write(settings: ServerSettings): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(settings, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.path);
  }
}

/** Lays stored values onto the defaults field by field; unknown keys are dropped and a value of the wrong type keeps
 * the default, so a hand-edited file cannot stop the server. */
export function overlay(kind: ObjectKind, defaults: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const result = structuredClone(defaults);
  for (const [field, fieldKind] of Object.entries(kind.fields)) {
    if (!Object.hasOwn(stored, field) || fieldKind.kind === 'readonly') continue;
    const value = stored[field];
    if (fieldKind.kind === 'object') {
      if (isPlainObject(value)) result[field] = overlay(fieldKind, defaults[field] as Record<string, unknown>, value);
      continue;
    }
    try {
      result[field] = convertValue(fieldKind, value, defaults[field]);
    } catch {
      // keeps the default
    }
  }
  return result;
}
