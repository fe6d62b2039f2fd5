import { isDeepStrictEqual } from 'node:util';
import type { JsonPatchOperation, ServerSettings } from '@shoko-ts/contract';
import type { FieldErrors } from '../../http/problem.js';
import { ConversionError, convertValue, findKey, isPlainObject, type FieldKind, type ObjectKind } from './settings.schema.js';

class PatchError extends Error {
  constructor(
    readonly typeName: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where an operation lands: the container, its kind, and the member inside it. */
interface Target {
  container: Record<string, unknown> | unknown[];
  kind: FieldKind;
  /** Canonical property name, list index (as text, or '-') or dictionary key. */
  member: string;
  memberKind: FieldKind;
  defaults: unknown;
  typeName: string;
}

function parsePointer(path: string): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  if (trimmed === '') return [];
  return trimmed.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function locate(root: ServerSettings, rootKind: ObjectKind, defaults: ServerSettings, path: string): Target {
  const segments = parsePointer(path);
  if (!segments.length) throw new PatchError(rootKind.typeName, `The path '${path}' does not point to a setting.`);
  let node: unknown = root;
  let kind: FieldKind = rootKind;
  let nodeDefaults: unknown = defaults;
  let typeName = rootKind.typeName;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    let member: string;
    let memberKind: FieldKind;
    if (kind.kind === 'object') {
      typeName = kind.typeName;
      const field = findKey(kind.fields, segment);
      if (!field) throw new PatchError(typeName, `The target location specified by path segment '${segment}' was not found.`);
      member = field;
      memberKind = kind.fields[field];
    } else if (kind.kind === 'list') {
      member = segment;
      memberKind = kind.item;
    } else if (kind.kind === 'dict') {
      member = segment;
      memberKind = kind.value;
    } else {
      throw new PatchError(typeName, `The path segment '${segment}' is inside a value that has no members.`);
    }
    if (last) return { container: node as Target['container'], kind, member, memberKind, defaults: nodeDefaults, typeName };
    const container = node as Record<string, unknown>;
    if (kind.kind === 'list') {
      const index = listIndex(segment, (node as unknown[]).length, false, typeName);
      node = (node as unknown[])[index];
    } else {
      const key = kind.kind === 'dict' ? findKey(container, member) : member;
      if (key === undefined) throw new PatchError(typeName, `The key '${segment}' was not found.`);
      node = container[key];
    }
    nodeDefaults = isPlainObject(nodeDefaults) ? nodeDefaults[member] : undefined;
    kind = memberKind;
    if (node === null || typeof node !== 'object') throw new PatchError(typeName, `The path '${path}' does not exist.`);
  }
  throw new PatchError(typeName, `The path '${path}' does not exist.`);
}

function listIndex(segment: string, length: number, forInsert: boolean, typeName: string): number {
  if (segment === '-' && forInsert) return length;
  if (!/^\d+$/.test(segment)) throw new PatchError(typeName, `The index '${segment}' is not a valid list index.`);
  const index = Number(segment);
  if (index > length || (!forInsert && index === length)) {
    throw new PatchError(typeName, `The index value provided by path segment '${segment}' is out of bounds of the array size.`);
  }
  return index;
}

function convert(target: Target, value: unknown): unknown {
  try {
    const memberDefaults = isPlainObject(target.defaults) ? target.defaults[target.member] : undefined;
    return convertValue(target.memberKind, value, memberDefaults);
  } catch (error) {
    if (error instanceof ConversionError) {
      throw new PatchError(target.typeName, `The value for '${target.member}' is invalid: ${error.message}`);
    }
    throw error;
  }
}

function read(target: Target): unknown {
  const { container, kind, member } = target;
  if (kind.kind === 'list') return (container as unknown[])[listIndex(member, (container as unknown[]).length, false, target.typeName)];
  const key = kind.kind === 'dict' ? findKey(container as Record<string, unknown>, member) : member;
  if (key === undefined) throw new PatchError(target.typeName, `The key '${member}' was not found.`);
  return (container as Record<string, unknown>)[key];
}

function write(target: Target, value: unknown, mode: 'add' | 'replace'): void {
  const { container, kind, member } = target;
  if (target.memberKind.kind === 'readonly') throw new PatchError(target.typeName, `The property '${member}' cannot be changed.`);
  const converted = convert(target, value);
  if (kind.kind === 'list') {
    const list = container as unknown[];
    if (mode === 'add') list.splice(listIndex(member, list.length, true, target.typeName), 0, converted);
    else list[listIndex(member, list.length, false, target.typeName)] = converted;
    return;
  }
  const object = container as Record<string, unknown>;
  if (kind.kind === 'dict') {
    const existing = findKey(object, member);
    if (mode === 'replace' && existing === undefined) throw new PatchError(target.typeName, `The key '${member}' was not found.`);
    object[existing ?? member] = converted;
    return;
  }
  object[member] = converted;
}

/** Removing a property resets it to its type's empty value; list items and dictionary keys disappear. */
function remove(target: Target): unknown {
  const removed = read(target);
  const { container, kind, member, memberKind } = target;
  if (kind.kind === 'list') {
    (container as unknown[]).splice(Number(member), 1);
  } else if (kind.kind === 'dict') {
    delete (container as Record<string, unknown>)[findKey(container as Record<string, unknown>, member)!];
  } else {
    (container as Record<string, unknown>)[member] = emptyValue(memberKind, target);
  }
  return removed;
}

function emptyValue(kind: FieldKind, target: Target): unknown {
  switch (kind.kind) {
    case 'bool':
      return false;
    case 'int':
      return 0;
    case 'enum':
      return Math.min(...Object.values(kind.values));
    case 'string':
      return kind.nullable ? null : '';
    case 'list':
      return [];
    case 'dict':
      return {};
    default:
      throw new PatchError(target.typeName, `The property '${target.member}' cannot be removed.`);
  }
}

/**
 * Applies RFC 6902 operations to a deep copy of `settings`. A failing operation is recorded (keyed by the name of the
 * object it patched) and the rest still run, as in Shoko; the caller decides whether errors block the save.
 */
export function applySettingsPatch(
  settings: ServerSettings,
  operations: JsonPatchOperation[],
  schema: ObjectKind,
  defaults: ServerSettings,
): { result: ServerSettings; errors: FieldErrors } {
  const result = structuredClone(settings);
  const errors: FieldErrors = {};
  const at = (path: string) => locate(result, schema, defaults, path);
  for (const operation of operations) {
    try {
      switch (operation.op) {
        case 'add':
          write(at(operation.path), operation.value, 'add');
          break;
        case 'replace':
          write(at(operation.path), operation.value, 'replace');
          break;
        case 'remove':
          remove(at(operation.path));
          break;
        case 'copy':
          write(at(operation.path), structuredClone(read(at(operation.from ?? ''))), 'add');
          break;
        case 'move': {
          const value = remove(at(operation.from ?? ''));
          write(at(operation.path), value, 'add');
          break;
        }
        case 'test': {
          const target = at(operation.path);
          if (!isDeepStrictEqual(read(target), convert(target, operation.value))) {
            throw new PatchError(target.typeName, `The current value at '${operation.path}' is not equal to the test value.`);
          }
          break;
        }
        default:
          throw new PatchError(schema.typeName, `The operation '${String((operation as { op: unknown }).op)}' is not supported.`);
      }
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      (errors[error.typeName] ??= []).push(error.message);
    }
  }
  return { result, errors };
}
