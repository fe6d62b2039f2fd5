/*
 * Shoko's renamer configs (table RenamerInstance) as rows of our `renamer_configs`.
 *
 * Type is the renamer's .NET type name (Type.ToString(): `Namespace.Class`; Shoko also reads a bare class name).
 * Settings is MessagePack-CSharp's `Typeless` serialization of the renamer's settings object, compressed with the
 * Lz4BlockArray option Shoko sets at start-up:
 *   - Lz4BlockArray: array [ ext 98 whose data is one msgpack int per block (its uncompressed length), bin block... ];
 *     payloads under 64 bytes stay uncompressed; ext 99 (Lz4Block: int32 length, then one block) is read too.
 *   - Typeless: ext 100 whose data is a msgpack string (the assembly-qualified type name) followed by the object.
 *   - The object: a map of property name to value (contractless resolver).
 */
import { decode, DecodeError, decodeMulti, ExtData } from '@msgpack/msgpack';
import { scriptRenamer, type RenamerPlugin } from '../renamer/index.js';

export interface ShokoRenamerInstanceRow {
  ID: number;
  Name: string;
  Type: string;
  Settings: Uint8Array | null;
}

export interface ImportedRenamerConfig {
  name: string;
  renamerId: string;
  /** Every setting of the renamer in its declared order, as renamer_configs stores them. */
  settings: Array<{ Name: string; Value: unknown }>;
}

const LZ4_BLOCK_ARRAY = 98;
const LZ4_BLOCK = 99;
const TYPELESS = 100;

/** Shoko renamers we have a counterpart of, by .NET full type name: their settings class and property names. */
const SHOKO_RENAMERS: Record<string, { plugin: RenamerPlugin; settingsType: string; properties: Record<string, string> }> = {
  'Shoko.Server.Renamer.WebAOMRenamer': {
    plugin: scriptRenamer,
    settingsType: 'Shoko.Server.Renamer.WebAOMSettings',
    properties: { MaxEpisodeLength: 'Max Episode Length', GroupAwareSorting: 'Group Aware Sorting', Script: 'Script' },
  },
};

class UnreadableSettings extends Error {}

/** The payload of a decoded extension (only encoders hold a function there). */
const extensionBytes = (extension: ExtData): Uint8Array => {
  if (!(extension.data instanceof Uint8Array)) throw new UnreadableSettings(`extension ${extension.type} without data`);
  return extension.data;
};

/** Decodes one LZ4 block (the raw block format, no frame) of a known uncompressed length. */
export function decompressLz4Block(block: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  let written = 0;
  const readLength = (base: number) => {
    let total = base;
    if (base === 15) {
      let byte: number;
      do {
        if (at >= block.length) throw new UnreadableSettings('LZ4 block ends inside a length');
        byte = block[at++];
        total += byte;
      } while (byte === 255);
    }
    return total;
  };
  while (at < block.length) {
    const token = block[at++];
    const literals = readLength(token >> 4);
    if (at + literals > block.length || written + literals > length) throw new UnreadableSettings('LZ4 literals overrun');
    out.set(block.subarray(at, at + literals), written);
    at += literals;
    written += literals;
    if (at === block.length) break;
    if (at + 2 > block.length) throw new UnreadableSettings('LZ4 block ends inside an offset');
    const offset = block[at] | (block[at + 1] << 8);
    at += 2;
    const matchLength = readLength(token & 15) + 4;
    if (offset === 0 || offset > written || written + matchLength > length) throw new UnreadableSettings('LZ4 match out of range');
    // Byte by byte: a match may overlap the bytes it is producing.
    for (let i = 0; i < matchLength; i++, written++) out[written] = out[written - offset];
  }
  if (written !== length) throw new UnreadableSettings(`LZ4 block holds ${written} bytes, not ${length}`);
  return out;
}

/** The uncompressed MessagePack of a Settings blob. */
function uncompressed(bytes: Uint8Array): Uint8Array {
  const top = decode(bytes);
  if (Array.isArray(top) && top[0] instanceof ExtData && top[0].type === LZ4_BLOCK_ARRAY) {
    const lengths = [...decodeMulti(extensionBytes(top[0]))];
    const blocks = top.slice(1);
    if (lengths.length !== blocks.length || !blocks.every((b) => b instanceof Uint8Array) || !lengths.every(Number.isInteger))
      throw new UnreadableSettings('malformed Lz4BlockArray');
    const parts = blocks.map((block, i) => decompressLz4Block(block as Uint8Array, lengths[i] as number));
    const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }
  if (top instanceof ExtData && top.type === LZ4_BLOCK) {
    // An int32 (0xd2 and four big-endian bytes) with the uncompressed length, then the block.
    const data = extensionBytes(top);
    if (data[0] !== 0xd2 || data.length < 5) throw new UnreadableSettings('malformed Lz4Block');
    const length = new DataView(data.buffer, data.byteOffset + 1, 4).getInt32(0);
    return decompressLz4Block(data.subarray(5), length);
  }
  return bytes;
}

/** The .NET type name (without assembly) and the object of a Typeless payload. */
export function decodeTypeless(bytes: Uint8Array): { typeName: string | null; value: unknown } {
  const top = decode(uncompressed(bytes));
  if (!(top instanceof ExtData) || top.type !== TYPELESS) return { typeName: null, value: top };
  const [typeName, value] = [...decodeMulti(extensionBytes(top))];
  if (typeof typeName !== 'string') throw new UnreadableSettings('Typeless data without a type name');
  return { typeName: typeName.split(',')[0].trim(), value };
}

function readSettings(bytes: Uint8Array): { typeName: string | null; value: unknown } {
  try {
    return decodeTypeless(bytes);
  } catch (error) {
    if (error instanceof UnreadableSettings || error instanceof DecodeError || error instanceof RangeError)
      throw new UnreadableSettings(`Settings could not be read (${error.message})`);
    throw error;
  }
}

/** A Shoko property value checked against our setting's type and range, or the reason it does not fit. */
function settingValue(spec: RenamerPlugin['settings'][number], value: unknown): { value: unknown } | { reason: string } {
  if (value === undefined) return { value: spec.defaultValue };
  const wrong = { reason: `setting '${spec.Name}' has ${JSON.stringify(value)}, not a ${spec.SettingType.toLowerCase()}` };
  if (spec.SettingType === 'Integer' || spec.SettingType === 'Decimal') {
    if (typeof value !== 'number' || !Number.isFinite(value) || (spec.SettingType === 'Integer' && !Number.isInteger(value))) return wrong;
    if ((spec.MinimumValue !== undefined && value < spec.MinimumValue) || (spec.MaximumValue !== undefined && value > spec.MaximumValue))
      return { reason: `setting '${spec.Name}' has ${value}, outside ${spec.MinimumValue}..${spec.MaximumValue}` };
    return { value };
  }
  if (spec.SettingType === 'Boolean') return typeof value === 'boolean' ? { value } : wrong;
  return value === null || typeof value === 'string' ? { value } : wrong;
}

/**
 * One RenamerInstance row as a renamer config of ours, or the reason it cannot be imported (a renamer we have no
 * counterpart of, settings of another type or unreadable, a value our renamer would refuse). A row without
 * settings gets our renamer's defaults.
 */
export function mapShokoRenamerInstance(
  row: ShokoRenamerInstanceRow,
): { ok: true; config: ImportedRenamerConfig } | { ok: false; reason: string } {
  const typeName = row.Type.split(',')[0].trim();
  const renamer = SHOKO_RENAMERS[typeName] ?? Object.entries(SHOKO_RENAMERS).find(([fullName]) => fullName.endsWith(`.${typeName}`))?.[1];
  if (!renamer) return { ok: false, reason: `unsupported renamer type '${row.Type}'` };
  const { plugin } = renamer;
  const defaults = () => plugin.settings.map((s): { Name: string; Value: unknown } => ({ Name: s.Name, Value: s.defaultValue }));
  if (row.Settings === null || row.Settings.length === 0)
    return { ok: true, config: { name: row.Name, renamerId: plugin.id, settings: defaults() } };

  let decoded: { typeName: string | null; value: unknown };
  try {
    decoded = readSettings(row.Settings);
  } catch (error) {
    if (error instanceof UnreadableSettings) return { ok: false, reason: error.message };
    throw error;
  }
  if (decoded.typeName !== null && decoded.typeName !== renamer.settingsType)
    return { ok: false, reason: `settings of type '${decoded.typeName}', expected '${renamer.settingsType}'` };
  const object = decoded.value;
  if (typeof object !== 'object' || object === null || Array.isArray(object))
    return { ok: false, reason: 'Settings do not hold an object' };

  const byOurName = new Map(
    Object.entries(renamer.properties).map(([property, ours]) => [ours, (object as Record<string, unknown>)[property]]),
  );
  const settings: Array<{ Name: string; Value: unknown }> = [];
  for (const spec of plugin.settings) {
    const checked = settingValue(spec, byOurName.get(spec.Name));
    if ('reason' in checked) return { ok: false, reason: checked.reason };
    settings.push({ Name: spec.Name, Value: checked.value });
  }
  return { ok: true, config: { name: row.Name, renamerId: plugin.id, settings } };
}
