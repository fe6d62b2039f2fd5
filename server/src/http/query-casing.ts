import type { TSchema } from '@sinclair/typebox';
import { normalizeKeyCasing } from './body-casing.js';

/**
 * ASP.NET binds query strings without regard to case: `IncludeDataFrom=anidb`, `recursive=True` (how C# formats a
 * bool) and `type=episode` all bind. Before validation, rename keys to the declared casing, lower-case boolean words
 * and map enum words to their declared spelling. Anything the schema does not describe is left for validation.
 */
export function normalizeQueryCasing(query: unknown, schema: TSchema | undefined): unknown {
  const renamed = normalizeKeyCasing(query, schema);
  const properties = schema?.properties as Record<string, TSchema> | undefined;
  if (!properties || renamed === null || typeof renamed !== 'object') return renamed;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(renamed as Record<string, unknown>)) {
    const property = properties[key];
    out[key] = property ? normalizeValue(value, property) : value;
  }
  return out;
}

function normalizeValue(value: unknown, schema: TSchema): unknown {
  if (Array.isArray(value)) {
    const items = arrayItems(schema);
    return items ? value.map((item) => normalizeValue(item, items)) : value;
  }
  if (typeof value !== 'string') return value;
  if (acceptsBoolean(schema)) {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return lower;
  }
  const words = enumWords(schema);
  return words.get(value.toLowerCase()) ?? value;
}

const variantsOf = (schema: TSchema): TSchema[] => [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as TSchema[])];

const acceptsBoolean = (schema: TSchema) => variantsOf(schema).some((s) => s.type === 'boolean' || arrayItems(s)?.type === 'boolean');

/** An array schema's item schema, also when the array is one variant of a union (a one-or-many parameter). */
function arrayItems(schema: TSchema): TSchema | undefined {
  for (const variant of variantsOf(schema)) if (variant.type === 'array' && variant.items) return variant.items as TSchema;
  return undefined;
}

/** Lower-cased word → declared word, for string literals and `enum` lists anywhere in the schema's variants. */
function enumWords(schema: TSchema): Map<string, string> {
  const words = new Map<string, string>();
  const collect = (s: TSchema) => {
    if (typeof s.const === 'string') words.set(s.const.toLowerCase(), s.const);
    if (Array.isArray(s.enum)) for (const word of s.enum) if (typeof word === 'string') words.set(word.toLowerCase(), word);
  };
  for (const variant of variantsOf(schema)) {
    collect(variant);
    const items = arrayItems(variant);
    if (items) for (const nested of variantsOf(items)) collect(nested);
  }
  return words;
}
