import type { WebUITheme } from '@shoko-ts/contract';

/** Theme file names (without extension) the server accepts; anything else could name a path outside the themes folder. */
export const THEME_FILE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const VERSION = /^\d+(\.\d+){0,3}$/;
/** CSS custom property names (without the leading `--`). */
const VARIABLE_NAME = /^[A-Za-z0-9_-]+$/;
/** Characters that would end a declaration or block early and let a value inject rules. */
const UNSAFE_VALUE = /[;{}<>\\\n\r]/;

/** A theme definition file (`<id>.json`), as validated. */
export interface ThemeDefinition {
  name?: string;
  version: string;
  description?: string;
  tags: string[];
  author: string;
  values: Record<string, string>;
  css?: string;
  cssUrl?: string;
  updateUrl?: string;
}

/** A rule broken by a theme file; the routes answer it as 400 with the field the contract names. */
export class ThemeValidationError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** `My_Theme` → `my-theme`. */
export function themeIdOf(fileName: string): string {
  return fileName.toLowerCase().replaceAll('_', '-');
}

/** `my-theme` → `My Theme`. */
export function nameFromId(id: string): string {
  return id
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/** `1.2` → `1.2.0.0`. */
export function fourPartVersion(version: string): string {
  const parts = version.split('.');
  while (parts.length < 4) parts.push('0');
  return parts.map((part) => String(Number(part))).join('.');
}

/** Negative when `a` is lower than `b`. */
export function compareVersions(a: string, b: string): number {
  const left = fourPartVersion(a).split('.').map(Number);
  const right = fourPartVersion(b).split('.').map(Number);
  for (let i = 0; i < 4; i += 1) if (left[i] !== right[i]) return left[i]! - right[i]!;
  return 0;
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const optionalString = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ThemeValidationError(`The theme's ${field} must be a string.`);
  return value;
};

/** Validates parsed JSON as a theme definition. `hasCssFile` tells whether CSS comes from a separate file. */
export function parseThemeDefinition(raw: unknown, hasCssFile = false): ThemeDefinition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ThemeValidationError('The theme definition cannot be empty.');
  const input = raw as Record<string, unknown>;
  const version = optionalString(input.version, 'version');
  if (!version || !VERSION.test(version)) throw new ThemeValidationError('The theme version must be a version number such as 1.0.0.');
  const author = optionalString(input.author, 'author')?.trim();
  if (!author) throw new ThemeValidationError('The theme author is required.');
  const tags = input.tags ?? [];
  if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string'))
    throw new ThemeValidationError("The theme's tags must be a list of strings.");
  const values: Record<string, string> = {};
  if (input.values !== undefined && input.values !== null) {
    if (typeof input.values !== 'object' || Array.isArray(input.values))
      throw new ThemeValidationError("The theme's values must be an object of CSS variables.");
    for (const [key, value] of Object.entries(input.values as Record<string, unknown>)) {
      const name = key.replace(/^--/, '');
      if (!VARIABLE_NAME.test(name)) throw new ThemeValidationError(`Invalid CSS variable name "${key}".`);
      if (typeof value !== 'string' || !value.trim() || UNSAFE_VALUE.test(value))
        throw new ThemeValidationError(`Invalid value for the CSS variable "${key}".`);
      values[name] = value.trim();
    }
  }
  const css = optionalString(input.css, 'css');
  const cssUrl = optionalString(input.cssUrl, 'cssUrl');
  const updateUrl = optionalString(input.updateUrl, 'updateUrl');
  if (cssUrl !== undefined && !isHttpUrl(cssUrl)) throw new ThemeValidationError('The theme cssUrl must be an absolute http or https URL.');
  if (updateUrl !== undefined && !isHttpUrl(updateUrl))
    throw new ThemeValidationError('The theme updateUrl must be an absolute http or https URL.');
  if (!Object.keys(values).length && !css?.trim() && !cssUrl && !hasCssFile)
    throw new ThemeValidationError('The theme needs CSS variables (values) or CSS.');
  return {
    ...(optionalString(input.name, 'name')?.trim() ? { name: (input.name as string).trim() } : {}),
    version,
    ...(optionalString(input.description, 'description') ? { description: input.description as string } : {}),
    tags: tags as string[],
    author,
    values,
    ...(css !== undefined ? { css } : {}),
    ...(cssUrl ? { cssUrl } : {}),
    ...(updateUrl ? { updateUrl } : {}),
  };
}

/** The definition without the fields that only matter while downloading. */
export function storedDefinition(definition: ThemeDefinition): Omit<ThemeDefinition, 'cssUrl'> {
  const { cssUrl: _downloaded, ...stored } = definition;
  return stored;
}

/**
 * The stylesheet of one theme: its variables and inline CSS in a `.theme-<id>` block, then the CSS file's text (a
 * CSS-only theme is that file alone).
 */
export function themeCss(id: string, definition: ThemeDefinition | null, cssFile: string | null): string {
  const parts: string[] = [];
  if (definition) {
    const lines = Object.entries(definition.values).map(([name, value]) => `  --${name}: ${value};`);
    if (definition.css?.trim())
      lines.push(
        ...definition.css
          .trim()
          .split(/\r?\n/)
          .map((line) => `  ${line}`),
      );
    if (lines.length) parts.push(`.theme-${id} {\n${lines.join('\n')}\n}\n`);
  }
  if (cssFile?.trim()) parts.push(cssFile.endsWith('\n') ? cssFile : `${cssFile}\n`);
  return parts.join('\n');
}

/** The wire model of a theme. */
export function themeModel(
  id: string,
  definition: ThemeDefinition | null,
  cssFile: string | null,
  options: { installed: boolean; preview: boolean; withCss: boolean },
): WebUITheme {
  return {
    ID: id,
    Name: definition?.name ?? nameFromId(id),
    Description: definition?.description ?? null,
    Author: definition?.author ?? '<unknown>',
    IsPreview: options.preview,
    IsInstalled: options.installed,
    Version: definition ? fourPartVersion(definition.version) : '1.0.0.0',
    Tags: definition?.tags ?? [],
    URL: definition?.updateUrl ?? null,
    ...(options.withCss ? { CSS: themeCss(id, definition, cssFile) } : {}),
  };
}
