/**
 * Reading the objects fast-xml-parser builds (attributes prefixed `@`, text under `#text`, every value a string)
 * and AniDB's text conventions.
 */

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
/** AniDB sometimes escapes text twice (`&amp;quot;`); more than a few layers would be data, not escaping. */
const MAX_DECODE_PASSES = 4;

function decodeOnce(text: string): string {
  return text.replace(ENTITY, (entity, name: string) => {
    if (name[0] === '#') {
      const codePoint = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

export function decodeEntities(text: string): string {
  let current = text;
  for (let pass = 0; pass < MAX_DECODE_PASSES; pass++) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

export function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

const isElement = (node: unknown): node is Record<string, unknown> => typeof node === 'object' && node !== null && !Array.isArray(node);

/** All child elements called `name`. */
export function children(parent: unknown, name: string): unknown[] {
  return isElement(parent) ? asArray(parent[name]) : [];
}

export function child(parent: unknown, name: string): unknown {
  return children(parent, name)[0];
}

/** An element's decoded, trimmed text; null when the element is absent or empty. */
export function text(node: unknown): string | null {
  const raw = isElement(node) ? node['#text'] : node;
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const value = decodeEntities(String(raw)).trim();
  return value === '' ? null : value;
}

/** Text meant for people: AniDB writes apostrophes as backticks in titles, names and descriptions. */
export function prose(node: unknown): string | null {
  return text(node)?.replace(/`/g, "'") ?? null;
}

export function childText(parent: unknown, name: string): string | null {
  return text(child(parent, name));
}

export function childProse(parent: unknown, name: string): string | null {
  return prose(child(parent, name));
}

export function attr(node: unknown, name: string): string | null {
  if (!isElement(node)) return null;
  const value = node[`@${name}`];
  return typeof value === 'string' ? decodeEntities(value).trim() : null;
}

/** A whole number, or null when absent or not a number. */
export function integer(value: string | null): number | null {
  if (value === null || !/^-?\d+$/.test(value)) return null;
  return Number(value);
}

export function decimal(value: string | null): number | null {
  if (value === null || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

export function flag(value: string | null): boolean {
  return value?.toLowerCase() === 'true';
}

/** AniDB dates come as `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; partial ones start at the first day of the period. */
export function isoDate(value: string | null): string | null {
  const match = value?.match(/^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?/);
  if (!match) return null;
  const [, year, month = '1', day = '1'] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime()) || date.getUTCMonth() !== Number(month) - 1) return null;
  return date.toISOString().slice(0, 10);
}
