import { validationError } from './problem.js';

/** Applies RFC 6902 replace/add/remove operations to a flat model, matching property names case-insensitively. */
export function applyPatch<T extends object>(model: T, operations: unknown, entity: string): T {
  if (!Array.isArray(operations)) throw validationError('Body', 'Invalid JSON Patch document.');
  const target = model as Record<string, unknown>;
  for (const operation of operations as Array<{ op: string; path: string; value?: unknown } | null>) {
    if (typeof operation !== 'object' || operation === null || typeof operation.path !== 'string')
      throw validationError('Body', 'Each JSON Patch operation must be an object with "op" and "path".');
    const field = operation.path.replace(/^\//, '');
    const key = Object.keys(target).find((k) => k.toLowerCase() === field.toLowerCase());
    if (!key || !['replace', 'add', 'remove'].includes(operation.op))
      throw validationError(entity, `The operation ${operation.op} ${operation.path} is not supported on a ${entity.toLowerCase()}.`);
    let value = operation.op === 'remove' ? null : operation.value;
    // JSON Patch values arrive as strings from the console ("true", "12"); convert to the field's kind.
    if (typeof value === 'string' && /^Has/.test(key))
      value = value.toLowerCase() === 'true' ? true : value.toLowerCase() === 'false' ? false : value;
    if (typeof value === 'string' && /ID$/.test(key) && /^\d+$/.test(value)) value = Number(value);
    target[key] = value;
  }
  return model;
}
