import type { TSchema } from '@sinclair/typebox';

/**
 * Shoko binds JSON bodies case-insensitively (`{ force }` fills `Force`). Rename incoming keys to the casing the
 * route's schema declares, recursively, before validation runs. Unknown keys are left as they are.
 */
export function normalizeKeyCasing(value: unknown, schema: TSchema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const itemSchema = schema.items as TSchema | undefined;
    return itemSchema ? value.map((v) => normalizeKeyCasing(v, itemSchema)) : value;
  }
  const variants = (schema.anyOf ?? schema.allOf ?? schema.oneOf) as TSchema[] | undefined;
  if (variants) {
    const objectVariant = variants.find((v) => v.type === 'object' && v.properties);
    return objectVariant ? normalizeKeyCasing(value, objectVariant) : value;
  }
  const properties = schema.properties as Record<string, TSchema> | undefined;
  if (!properties) return value;
  const declared = new Map(Object.keys(properties).map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const name = declared.get(key.toLowerCase()) ?? key;
    // An exact-case key wins over a differently-cased duplicate.
    if (name in out && key !== name) continue;
    out[name] = normalizeKeyCasing(v, properties[name]);
  }
  return out;
}
