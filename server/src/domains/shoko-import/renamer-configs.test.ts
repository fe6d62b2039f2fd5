import { describe, expect, it } from 'vitest';
import {
  compressLz4Block,
  shokoRenamerInstance,
  typelessObject,
  unsupportedRenamerInstance,
  lz4BlockArray,
} from '../../../../fakes/src/shoko-data/renamer-settings.js';
import { DEFAULT_SCRIPT } from '../renamer/index.js';
import { decompressLz4Block, mapShokoRenamerInstance, type ShokoRenamerInstanceRow } from './renamer-configs.js';

const WEBAOM = 'Shoko.Server.Renamer.WebAOMRenamer';
const SETTINGS_TYPE = 'Shoko.Server.Renamer.WebAOMSettings, Shoko.Server, Version=5.3.3.0, Culture=neutral, PublicKeyToken=null';

const asRow = (instance: { name: string; type: string; settings: Uint8Array | null }, id = 1): ShokoRenamerInstanceRow => ({
  ID: id,
  Name: instance.name,
  Type: instance.type,
  Settings: instance.settings,
});

function config(row: ShokoRenamerInstanceRow) {
  const result = mapShokoRenamerInstance(row);
  if (!result.ok) throw new Error(`expected a config, got: ${result.reason}`);
  return result.config;
}

function reason(row: ShokoRenamerInstanceRow) {
  const result = mapShokoRenamerInstance(row);
  if (result.ok) throw new Error('expected the row to be refused');
  return result.reason;
}

/** Bytes from numbers and ASCII text, for layouts written out by hand. */
const bytes = (...parts: Array<number | string>) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'number' ? [part] : [...part].map((c) => c.charCodeAt(0)))));

/**
 * WebAOMSettings { MaxEpisodeLength = 40, GroupAwareSorting = true, Script = "DO ADD '%ann'" } as Typeless, uncompressed:
 * ext8 type 100 of 169 bytes = str8 type name (104 bytes), fixmap 3, each key a fixstr, the Int32 as int32 (0xd2).
 */
const HAND_BUILT_TYPELESS = bytes(
  0xc7,
  169,
  100,
  0xd9,
  104,
  SETTINGS_TYPE,
  0x83,
  0xb0,
  'MaxEpisodeLength',
  0xd2,
  0,
  0,
  0,
  40,
  0xb1,
  'GroupAwareSorting',
  0xc3,
  0xa6,
  'Script',
  0xad,
  "DO ADD '%ann'",
);

describe('mapShokoRenamerInstance', () => {
  it('reads the settings the fake Shoko writes for the script renamer', () => {
    expect(config(asRow(shokoRenamerInstance('Default', DEFAULT_SCRIPT)))).toEqual({
      name: 'Default',
      renamerId: 'WebAOM',
      settings: [
        { Name: 'Max Episode Length', Value: 33 },
        { Name: 'Group Aware Sorting', Value: false },
        { Name: 'Script', Value: DEFAULT_SCRIPT },
      ],
    });
    const grouped = shokoRenamerInstance('Grouped', 'DO ADD %ann', { groupAware: true, maxEpisodeLength: 120 });
    expect(config(asRow(grouped)).settings).toEqual([
      { Name: 'Max Episode Length', Value: 120 },
      { Name: 'Group Aware Sorting', Value: true },
      { Name: 'Script', Value: 'DO ADD %ann' },
    ]);
  });

  it('reads a hand-built Typeless payload, bare and in a hand-built Lz4BlockArray', () => {
    const expected = [
      { Name: 'Max Episode Length', Value: 40 },
      { Name: 'Group Aware Sorting', Value: true },
      { Name: 'Script', Value: "DO ADD '%ann'" },
    ];
    expect(HAND_BUILT_TYPELESS.length).toBe(3 + 169);
    expect(config({ ID: 1, Name: 'Hand', Type: WEBAOM, Settings: HAND_BUILT_TYPELESS }).settings).toEqual(expected);
    // fixarray 2: fixext2 type 98 holding uint8 172 (the block's uncompressed length), then bin32 of one LZ4 block
    // made of literals only: token 0xF0, 172 - 15 = 157 more literals, the 172 bytes.
    const compressed = bytes(0x92, 0xd5, 98, 0xcc, 172, 0xc6, 0, 0, 0, 174, 0xf0, 157, ...HAND_BUILT_TYPELESS);
    expect(config({ ID: 1, Name: 'Hand', Type: WEBAOM, Settings: compressed }).settings).toEqual(expected);
    // ext 99 (Lz4Block): int32 uncompressed length, then the block.
    const single = bytes(0xc7, 179, 99, 0xd2, 0, 0, 0, 172, 0xf0, 157, ...HAND_BUILT_TYPELESS);
    expect(config({ ID: 1, Name: 'Hand', Type: 'WebAOMRenamer', Settings: single }).settings).toEqual(expected);
  });

  it('writes the Typeless layout written out above', () => {
    const written = typelessObject(SETTINGS_TYPE, [
      ['MaxEpisodeLength', 40],
      ['GroupAwareSorting', true],
      ['Script', "DO ADD '%ann'"],
    ]);
    expect(written).toEqual(HAND_BUILT_TYPELESS);
  });

  it('writes the Lz4BlockArray framing MessagePack-CSharp writes', () => {
    const payload = typelessObject(SETTINGS_TYPE, [
      ['MaxEpisodeLength', 33],
      ['GroupAwareSorting', false],
      ['Script', DEFAULT_SCRIPT],
    ]);
    const settings = shokoRenamerInstance('Default', DEFAULT_SCRIPT).settings;
    const length = payload.length;
    expect(length).toBeGreaterThan(255);
    const blockLength = settings.length - 12;
    // fixarray 2, ext8 of 3 bytes type 98 holding uint16 length, bin32 header.
    expect([...settings.subarray(0, 12)]).toEqual([
      0x92,
      0xc7,
      3,
      98,
      0xcd,
      length >> 8,
      length & 0xff,
      0xc6,
      0,
      0,
      blockLength >> 8,
      blockLength & 0xff,
    ]);
    expect(decompressLz4Block(settings.subarray(12), length)).toEqual(payload);
    expect([...payload.subarray(0, 4)]).toEqual([0xc8, (payload.length - 4) >> 8, (payload.length - 4) & 0xff, 100]);
    // Below 64 bytes MessagePack-CSharp does not compress.
    expect(lz4BlockArray(bytes('short'))).toEqual(bytes('short'));
  });

  it('refuses a renamer we have no counterpart of, naming its type', () => {
    expect(reason(asRow(unsupportedRenamerInstance()))).toBe("unsupported renamer type 'LuaRenamer.LuaRenamer'");
  });

  it('refuses settings of another type, values our renamer refuses, and unreadable bytes', () => {
    expect(reason({ ...asRow(unsupportedRenamerInstance()), Type: WEBAOM })).toBe(
      "settings of type 'LuaRenamer.LuaRenamerSettings', expected 'Shoko.Server.Renamer.WebAOMSettings'",
    );
    expect(reason(asRow(shokoRenamerInstance('Zero', 'DO ADD %ann', { maxEpisodeLength: 0 })))).toMatch(/'Max Episode Length' has 0/);
    const cut = shokoRenamerInstance('Cut', DEFAULT_SCRIPT).settings.subarray(0, 40);
    expect(reason({ ID: 1, Name: 'Cut', Type: WEBAOM, Settings: cut })).toMatch(/^Settings could not be read/);
  });

  it('gives a config without settings our defaults', () => {
    expect(config({ ID: 3, Name: 'Empty', Type: WEBAOM, Settings: null }).settings).toEqual([
      { Name: 'Max Episode Length', Value: 33 },
      { Name: 'Group Aware Sorting', Value: false },
      { Name: 'Script', Value: DEFAULT_SCRIPT },
    ]);
  });
});

describe('LZ4 blocks', () => {
  it('compresses a run as LZ4 does: one literal, a 27-byte match at offset 1, five last literals', () => {
    expect([...compressLz4Block(bytes('a'.repeat(32)))]).toEqual([0x1f, 0x61, 0x01, 0x00, 0x07, 0x50, 0x61, 0x61, 0x61, 0x61, 0x61]);
    expect([...compressLz4Block(bytes('abc'))]).toEqual([0x30, 0x61, 0x62, 0x63]);
  });

  it('round-trips long literals and long matches', () => {
    let seed = 42;
    const noise = Array.from({ length: 700 }, () => 33 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 90));
    for (const input of [bytes(DEFAULT_SCRIPT), bytes(...noise, 'x'.repeat(900), ...noise), bytes(DEFAULT_SCRIPT.repeat(20))])
      expect(decompressLz4Block(compressLz4Block(input), input.length)).toEqual(input);
  });
});
