/*
 * RenamerInstance rows as Shoko Server 5.x writes them. Type is the renamer's .NET full type name; Settings is
 * MessagePack-CSharp 2.5's `MessagePackSerializer.Typeless` output for the settings object, with the options Shoko sets
 * at start-up (Lz4BlockArray compression). The layout, outermost first:
 *
 *   compressed (payloads of 64 bytes or more; a Typeless payload always is):
 *     array(1 + blocks) [ ext 98 (the uncompressed length of each block as msgpack uints), bin32 LZ4 block, ... ]
 *     (one block up to 32 KiB, the size of MessagePack-CSharp's pooled buffers)
 *   Typeless: ext 100 [ str assembly-qualified type name, the object ]
 *   the object (contractless resolver): map of property name → value in declaration order; Int32 properties are
 *   always int32 (0xd2, the typeless resolver's fixed-size integers), bools and strings as usual.
 *
 * The LZ4 block is produced the way MessagePack-CSharp's own LZ4 port compresses inputs under 64 KiB (an 11-bit hash
 * of each 4-byte sequence, match search skipping faster after 61 misses, last 5 bytes always literals), so the bytes
 * are the ones Shoko stores.
 */

export const WEBAOM_RENAMER_TYPE = 'Shoko.Server.Renamer.WebAOMRenamer';
/** The assembly version of a Shoko 5.3.3 release build, part of every Typeless type name Shoko writes. */
export const SHOKO_ASSEMBLY_VERSION = '5.3.3.0';

const assemblyQualified = (type: string, assembly: string, version: string) =>
  `${type}, ${assembly}, Version=${version}, Culture=neutral, PublicKeyToken=null`;

type MessagePackField = string | number | boolean | null;

/** The few MessagePack encodings Typeless settings need, written the way MessagePack-CSharp writes them. */
class MessagePackBytes {
  private readonly bytes: number[] = [];

  private bigEndian(value: number, size: number): void {
    for (let shift = (size - 1) * 8; shift >= 0; shift -= 8) this.bytes.push(Math.floor(value / 2 ** shift) & 0xff);
  }

  uint(value: number): this {
    if (value <= 0x7f) this.bytes.push(value);
    else if (value <= 0xff) this.bytes.push(0xcc, value);
    else if (value <= 0xffff) {
      this.bytes.push(0xcd);
      this.bigEndian(value, 2);
    } else {
      this.bytes.push(0xce);
      this.bigEndian(value, 4);
    }
    return this;
  }

  int32(value: number): this {
    this.bytes.push(0xd2);
    this.bigEndian(value >>> 0, 4);
    return this;
  }

  string(value: string): this {
    const utf8 = new TextEncoder().encode(value);
    const length = utf8.length;
    if (length <= 31) this.bytes.push(0xa0 | length);
    else if (length <= 0xff) this.bytes.push(0xd9, length);
    else if (length <= 0xffff) {
      this.bytes.push(0xda);
      this.bigEndian(length, 2);
    } else {
      this.bytes.push(0xdb);
      this.bigEndian(length, 4);
    }
    return this.raw(utf8);
  }

  field(value: MessagePackField): this {
    if (value === null) this.bytes.push(0xc0);
    else if (typeof value === 'boolean') this.bytes.push(value ? 0xc3 : 0xc2);
    else if (typeof value === 'number') this.int32(value);
    else this.string(value);
    return this;
  }

  mapHeader(count: number): this {
    if (count <= 15) this.bytes.push(0x80 | count);
    else {
      this.bytes.push(0xde);
      this.bigEndian(count, 2);
    }
    return this;
  }

  arrayHeader(count: number): this {
    if (count <= 15) this.bytes.push(0x90 | count);
    else {
      this.bytes.push(0xdc);
      this.bigEndian(count, 2);
    }
    return this;
  }

  extHeader(type: number, length: number): this {
    const fixed: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
    if (fixed[length]) this.bytes.push(fixed[length]);
    else if (length <= 0xff) this.bytes.push(0xc7, length);
    else if (length <= 0xffff) {
      this.bytes.push(0xc8);
      this.bigEndian(length, 2);
    } else {
      this.bytes.push(0xc9);
      this.bigEndian(length, 4);
    }
    this.bytes.push(type);
    return this;
  }

  bin32(data: Uint8Array): this {
    this.bytes.push(0xc6);
    this.bigEndian(data.length, 4);
    return this.raw(data);
  }

  raw(data: Uint8Array): this {
    for (const byte of data) this.bytes.push(byte);
    return this;
  }

  get length(): number {
    return this.bytes.length;
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const TYPELESS_EXTENSION = 100;
const LZ4_BLOCK_ARRAY_EXTENSION = 98;
const COMPRESSION_MIN_LENGTH = 64;

/** An object of .NET type `typeName` with `fields` (name → value, in declaration order) as Typeless MessagePack. */
export function typelessObject(typeName: string, fields: Array<[string, MessagePackField]>): Uint8Array {
  const body = new MessagePackBytes().string(typeName).mapHeader(fields.length);
  for (const [name, value] of fields) body.string(name).field(value);
  return new MessagePackBytes().extHeader(TYPELESS_EXTENSION, body.length).raw(body.toBytes()).toBytes();
}

/** MessagePack-CSharp's Lz4BlockArray framing of a serialized payload (raw below the 64-byte threshold). */
export function lz4BlockArray(payload: Uint8Array): Uint8Array {
  if (payload.length < COMPRESSION_MIN_LENGTH) return payload;
  const lengths = new MessagePackBytes().uint(payload.length);
  return new MessagePackBytes()
    .arrayHeader(2)
    .extHeader(LZ4_BLOCK_ARRAY_EXTENSION, lengths.length)
    .raw(lengths.toBytes())
    .bin32(compressLz4Block(payload))
    .toBytes();
}

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MATCH_FIND_LIMIT = 12;
const SKIP_STRENGTH = 6;
const HASH_BITS = 11;

const readUint32 = (input: Uint8Array, at: number) =>
  (input[at] | (input[at + 1] << 8) | (input[at + 2] << 16) | (input[at + 3] << 24)) >>> 0;
const hashAt = (input: Uint8Array, at: number) => Math.imul(readUint32(input, at), 2654435761) >>> (32 - HASH_BITS);

/** One LZ4 block of an input under 64 KiB, compressed as MessagePack-CSharp 2.5 does (see the header comment). */
export function compressLz4Block(input: Uint8Array): Uint8Array {
  if (input.length >= 0x10000) throw new Error('Only inputs under 64 KiB fit one block here.');
  const out: number[] = [];
  const end = input.length;
  const matchFindEnd = end - MATCH_FIND_LIMIT;
  const matchEnd = end - LAST_LITERALS;
  const writeLength = (length: number) => {
    for (; length >= 255; length -= 255) out.push(255);
    out.push(length);
  };
  let anchor = 0;
  if (end >= MATCH_FIND_LIMIT + 1) {
    const table = new Uint16Array(1 << HASH_BITS);
    let position = 1;
    let nextHash = hashAt(input, position);
    search: for (;;) {
      let attempts = (1 << SKIP_STRENGTH) + 3;
      let next = position;
      let candidate: number;
      do {
        const hash = nextHash;
        position = next;
        next = position + (attempts++ >> SKIP_STRENGTH);
        if (next > matchFindEnd) break search;
        nextHash = hashAt(input, next);
        candidate = table[hash];
        table[hash] = position;
      } while (readUint32(input, candidate) !== readUint32(input, position));
      while (position > anchor && candidate > 0 && input[position - 1] === input[candidate - 1]) {
        position--;
        candidate--;
      }
      let token = out.length;
      const literals = position - anchor;
      out.push(Math.min(literals, 15) << 4);
      if (literals >= 15) writeLength(literals - 15);
      for (let i = anchor; i < position; i++) out.push(input[i]);
      for (;;) {
        const offset = position - candidate;
        out.push(offset & 0xff, offset >> 8);
        position += MIN_MATCH;
        candidate += MIN_MATCH;
        const matchStart = position;
        while (position < matchEnd && input[position] === input[candidate]) {
          position++;
          candidate++;
        }
        const matchLength = position - matchStart;
        out[token] += Math.min(matchLength, 15);
        if (matchLength >= 15) writeLength(matchLength - 15);
        if (position > matchFindEnd) {
          anchor = position;
          break search;
        }
        table[hashAt(input, position - 2)] = position - 2;
        const hash = hashAt(input, position);
        candidate = table[hash];
        table[hash] = position;
        if (readUint32(input, candidate) !== readUint32(input, position)) break;
        token = out.length;
        out.push(0);
      }
      anchor = position++;
      nextHash = hashAt(input, position);
    }
  }
  const lastLiterals = end - anchor;
  out.push(Math.min(lastLiterals, 15) << 4);
  if (lastLiterals >= 15) writeLength(lastLiterals - 15);
  for (let i = anchor; i < end; i++) out.push(input[i]);
  return Uint8Array.from(out);
}

export interface ShokoRenamerInstanceRow {
  name: string;
  type: string;
  settings: Uint8Array;
}

/** A config of Shoko's built-in script renamer (WebAOMRenamer with WebAOMSettings). */
export function shokoRenamerInstance(
  name: string,
  script: string,
  options: { groupAware?: boolean; maxEpisodeLength?: number; assemblyVersion?: string } = {},
): ShokoRenamerInstanceRow {
  const settings = typelessObject(
    assemblyQualified('Shoko.Server.Renamer.WebAOMSettings', 'Shoko.Server', options.assemblyVersion ?? SHOKO_ASSEMBLY_VERSION),
    [
      ['MaxEpisodeLength', options.maxEpisodeLength ?? 33],
      ['GroupAwareSorting', options.groupAware ?? false],
      ['Script', script],
    ],
  );
  return { name, type: WEBAOM_RENAMER_TYPE, settings: lz4BlockArray(settings) };
}

/** A config of a third-party renamer plugin (the Lua renamer), which has no counterpart of ours. */
export function unsupportedRenamerInstance(): ShokoRenamerInstanceRow {
  const settings = typelessObject(assemblyQualified('LuaRenamer.LuaRenamerSettings', 'LuaRenamer', '1.0.0.0'), [
    ['Script', 'filename = episode_name(Language.English) .. " - " .. episode_numbers(2)'],
  ]);
  return { name: 'Lua', type: 'LuaRenamer.LuaRenamer', settings: lz4BlockArray(settings) };
}
