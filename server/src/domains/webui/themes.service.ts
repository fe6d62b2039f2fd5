/**
 * DESIGN — webui domain: what the console needs from the server besides data (`/api/v3/WebUI/*`, contract server.md §7):
 * themes (this file: `<home>/themes`, list, stylesheet, upload, add from URL, delete), console and server release
 * checks per channel (releases.service.ts) and installing a console release (webui-updater.ts, download.ts, zip.ts).
 * Routes: webui.routes.ts; no database. Settings.WebUI_Settings, the console's own settings, stay in the settings domain.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WebUITheme } from '@shoko-ts/contract';
import { download } from './download.js';
import {
  compareVersions,
  parseThemeDefinition,
  storedDefinition,
  THEME_FILE_NAME,
  themeCss,
  themeIdOf,
  themeModel,
  ThemeValidationError,
  type ThemeDefinition,
} from './theme-definition.js';

/** Uploaded and downloaded theme files are capped: a theme is a few kilobytes of CSS variables. */
export const MAX_THEME_BYTES = 1024 * 1024;
const LIST_CACHE_MS = 10 * 60_000;
const UPDATE_CACHE_MS = 60_000;
const JSON_TYPES = ['application/json', 'text/json', 'text/plain'];
const CSS_TYPES = ['text/css', 'text/plain'];

/** A theme as stored: its definition file (absent for CSS-only themes) and its CSS file. */
interface StoredTheme {
  id: string;
  definition: ThemeDefinition | null;
  css: string | null;
}

/** A theme file that fails the rules; `field` is the key of the 400 answer. */
export class ThemeRequestError extends ThemeValidationError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The file the body was not (JSON that does not parse); answered as text. */
export class ThemeParseError extends Error {}

/**
 * Console themes under `<home>/themes`: `<id>.json` definitions and `<id>.css` stylesheets. Every path is built from
 * an ID that matched THEME_FILE_NAME, so nothing is read or written outside that folder.
 */
export class ThemesService {
  private readonly dir: string;
  private cache: { at: number; themes: StoredTheme[] } | null = null;
  private readonly updateCache = new Map<string, { at: number; theme: StoredTheme }>();

  constructor(home: string) {
    this.dir = path.join(home, 'themes');
  }

  async list(forceRefresh = false): Promise<WebUITheme[]> {
    return (await this.load(forceRefresh)).map((theme) => this.model(theme, { withCss: false }));
  }

  /** Every theme's CSS, one after the other. */
  async stylesheet(forceRefresh = false): Promise<string> {
    return (await this.load(forceRefresh)).map((theme) => themeCss(theme.id, theme.definition, theme.css)).join('\n');
  }

  async get(id: string, forceRefresh = false): Promise<WebUITheme | null> {
    const theme = await this.find(id, forceRefresh);
    return theme && this.model(theme, { withCss: true });
  }

  /** An uploaded `.css` or `.json` file; `preview` answers what would be installed without writing anything. */
  async addFromFile(fileName: string, content: Buffer, preview: boolean): Promise<WebUITheme> {
    const extension = path.extname(fileName).toLowerCase();
    if (extension !== '.css' && extension !== '.json') throw new ThemeRequestError('file', 'Unsupported file extension.');
    const baseName = fileName.slice(0, -extension.length);
    if (!THEME_FILE_NAME.test(baseName)) throw new ThemeRequestError('Body', 'Invalid theme file name.');
    if (content.length > MAX_THEME_BYTES)
      throw new ThemeRequestError('file', `The theme file must not be larger than ${MAX_THEME_BYTES / 1024} KiB.`);
    const text = content.toString('utf8');
    if (!text.trim()) throw new ThemeRequestError('Body', 'The theme definition cannot be empty.');
    const id = themeIdOf(baseName);
    const existing = await this.find(id, true);
    if (extension === '.css') {
      if (existing?.definition?.updateUrl)
        throw new ThemeRequestError('Body', 'The theme is updated from its update URL; its CSS cannot be replaced by an upload.');
      return this.install({ id, definition: null, css: text }, preview, !!existing);
    }
    const definition = this.parseDefinition(text, 'Body');
    const css = definition.cssUrl ? await this.downloadCss(definition.cssUrl) : null;
    return this.install({ id, definition, css }, preview, !!existing);
  }

  /** A theme definition downloaded from an http(s) URL whose last segment names the theme. */
  async addFromUrl(url: string, preview: boolean): Promise<WebUITheme> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ThemeRequestError('URL', 'The URL must be an absolute http or https URL.');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ThemeRequestError('URL', 'The URL must be an absolute http or https URL.');
    const lastSegment = decodeURIComponent(parsed.pathname.split('/').pop() ?? '').replace(/\.json$/i, '');
    if (!THEME_FILE_NAME.test(lastSegment)) throw new ThemeRequestError('URL', 'Invalid theme file name.');
    const id = themeIdOf(lastSegment);
    const definition = await this.downloadDefinition(url, 'URL');
    const css = definition.cssUrl ? await this.downloadCss(definition.cssUrl) : null;
    return this.install({ id, definition, css }, preview, !!(await this.find(id, true)));
  }

  /** Removes a theme's files; false when there was no such theme. */
  async remove(id: string): Promise<boolean> {
    const theme = await this.find(id, true);
    if (!theme) return false;
    for (const extension of ['.json', '.css']) await fs.promises.rm(this.file(theme.id, extension), { force: true });
    this.invalidate();
    return true;
  }

  /** The theme as its update URL offers it now (cached a minute); the installed theme when it has no update URL. */
  async previewUpdate(id: string): Promise<WebUITheme | null> {
    const theme = await this.find(id, true);
    if (!theme) return null;
    const updated = await this.fetchUpdate(theme);
    return this.model(updated ?? theme, { withCss: true, preview: !!updated });
  }

  async applyUpdate(id: string): Promise<WebUITheme | null> {
    const theme = await this.find(id, true);
    if (!theme) return null;
    const updated = await this.fetchUpdate(theme, true);
    if (!updated) return this.model(theme, { withCss: true });
    this.updateCache.delete(theme.id);
    return this.install(updated, false, true);
  }

  private async fetchUpdate(theme: StoredTheme, force = false): Promise<StoredTheme | null> {
    const url = theme.definition?.updateUrl;
    if (!url) return null;
    const cached = this.updateCache.get(theme.id);
    if (!force && cached && Date.now() - cached.at < UPDATE_CACHE_MS) return cached.theme;
    const definition = await this.downloadDefinition(url, 'Body');
    if (compareVersions(definition.version, theme.definition!.version) <= 0) {
      throw new ThemeRequestError(
        'Version',
        `The online version ${definition.version} is not newer than the installed version ${theme.definition!.version}.`,
      );
    }
    const css = definition.cssUrl ? await this.downloadCss(definition.cssUrl) : null;
    const updated = { id: theme.id, definition, css };
    this.updateCache.set(theme.id, { at: Date.now(), theme: updated });
    return updated;
  }

  private async install(theme: StoredTheme, preview: boolean, alreadyInstalled: boolean): Promise<WebUITheme> {
    if (preview) return this.model(theme, { withCss: true, preview: true, installed: alreadyInstalled });
    await fs.promises.mkdir(this.dir, { recursive: true });
    if (theme.definition)
      await this.writeAtomically(this.file(theme.id, '.json'), `${JSON.stringify(storedDefinition(theme.definition), null, 2)}\n`);
    else await fs.promises.rm(this.file(theme.id, '.json'), { force: true });
    if (theme.css !== null) await this.writeAtomically(this.file(theme.id, '.css'), theme.css);
    else await fs.promises.rm(this.file(theme.id, '.css'), { force: true });
    this.invalidate();
    return this.model(theme, { withCss: true });
  }

  private model(theme: StoredTheme, options: { withCss: boolean; preview?: boolean; installed?: boolean }): WebUITheme {
    return themeModel(theme.id, theme.definition, theme.css, {
      withCss: options.withCss,
      preview: options.preview ?? false,
      installed: options.installed ?? !options.preview,
    });
  }

  private parseDefinition(text: string, field: string, hasCssFile = false): ThemeDefinition {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ThemeParseError('The theme definition is not valid JSON.');
    }
    try {
      return parseThemeDefinition(raw, hasCssFile);
    } catch (error) {
      if (error instanceof ThemeValidationError && !(error instanceof ThemeRequestError)) throw new ThemeRequestError(field, error.message);
      throw error;
    }
  }

  private async downloadDefinition(url: string, field: string): Promise<ThemeDefinition> {
    const { body } = await download(url, { accept: JSON_TYPES, maxBytes: MAX_THEME_BYTES, headers: { accept: 'application/json' } });
    const text = body.toString('utf8');
    if (!text.trim()) throw new ThemeRequestError(field, 'The theme definition cannot be empty.');
    return this.parseDefinition(text, field);
  }

  private async downloadCss(url: string): Promise<string> {
    return (await download(url, { accept: CSS_TYPES, maxBytes: MAX_THEME_BYTES, headers: { accept: 'text/css' } })).body.toString('utf8');
  }

  private async find(id: string, forceRefresh = false): Promise<StoredTheme | null> {
    const wanted = themeIdOf(id);
    return (await this.load(forceRefresh)).find((theme) => theme.id === wanted) ?? null;
  }

  private file(id: string, extension: '.json' | '.css' | string): string {
    if (!THEME_FILE_NAME.test(id)) throw new ThemeRequestError('Body', 'Invalid theme file name.');
    return path.join(this.dir, `${id}${extension}`);
  }

  private async writeAtomically(file: string, text: string): Promise<void> {
    const temporary = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(temporary, text);
    await fs.promises.rename(temporary, file);
  }

  private invalidate() {
    this.cache = null;
  }

  /** Reads the folder (cached ten minutes); unreadable definitions are skipped so one bad file cannot break the list. */
  private async load(forceRefresh: boolean): Promise<StoredTheme[]> {
    if (!forceRefresh && this.cache && Date.now() - this.cache.at < LIST_CACHE_MS) return this.cache.themes;
    let names: string[] = [];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      names = [];
    }
    const byId = new Map<string, { json?: string; css?: string }>();
    for (const name of names) {
      const match = /^([A-Za-z][A-Za-z0-9_-]*)\.(json|css)$/i.exec(name);
      if (!match) continue;
      const id = themeIdOf(match[1]!);
      const entry = byId.get(id) ?? {};
      entry[match[2]!.toLowerCase() as 'json' | 'css'] = name;
      byId.set(id, entry);
    }
    const themes: StoredTheme[] = [];
    for (const [id, files] of byId) {
      try {
        const css = files.css ? await fs.promises.readFile(path.join(this.dir, files.css), 'utf8') : null;
        const definition = files.json
          ? parseThemeDefinition(JSON.parse(await fs.promises.readFile(path.join(this.dir, files.json), 'utf8')), css !== null)
          : null;
        themes.push({ id, definition, css });
      } catch {
        // A hand-edited file that no longer parses: left out until fixed.
      }
    }
    themes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.cache = { at: Date.now(), themes };
    return themes;
  }
}
