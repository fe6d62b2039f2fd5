import { describe, expect, it } from 'vitest';
import { applySettingsPatch } from './settings.patch.js';
import { defaultSettings } from './settings.defaults.js';
import { settingsSchema } from './settings.schema.js';

const defaults = defaultSettings('/data');
const schema = settingsSchema(defaults);
const run = (ops: Parameters<typeof applySettingsPatch>[1]) => applySettingsPatch(defaults, ops, schema, defaults);

describe('settings JSON Patch', () => {
  it('inserts, appends and removes list items', () => {
    const { result, errors } = run([
      { op: 'add', path: '/Import/VideoExtensions/0', value: 'TS' },
      { op: 'add', path: '/Import/VideoExtensions/-', value: 'WEBM' },
      { op: 'remove', path: '/Import/VideoExtensions/1' },
    ]);
    expect(errors).toEqual({});
    expect(result.Import.VideoExtensions[0]).toBe('TS');
    expect(result.Import.VideoExtensions[1]).toBe('AVI');
    expect(result.Import.VideoExtensions.at(-1)).toBe('WEBM');
    expect(defaults.Import.VideoExtensions[0]).toBe('MKV');
  });

  it('adds and removes dictionary keys', () => {
    const { result } = run([
      { op: 'add', path: '/Plugins/Renamer/EnabledRenamers/Default', value: 'true' },
      { op: 'remove', path: '/Quartz/LimitedConcurrencyOverrides/HashFileJob' },
    ]);
    expect(result.Plugins.Renamer.EnabledRenamers).toEqual({ Default: true });
    expect(result.Quartz.LimitedConcurrencyOverrides).toEqual({});
  });

  it('supports move, copy and test', () => {
    const { result, errors } = run([
      { op: 'copy', from: '/AniDb/UDPServerAddress', path: '/AniDb/Username' },
      { op: 'test', path: '/AniDb/Username', value: 'api.anidb.net' },
      { op: 'move', from: '/Language/SeriesTitleLanguageOrder/0', path: '/Language/EpisodeTitleLanguageOrder/-' },
    ]);
    expect(errors).toEqual({});
    expect(result.AniDb.Username).toBe('api.anidb.net');
    expect(result.Language.EpisodeTitleLanguageOrder).toEqual(['en', 'x-main']);
    expect(result.Language.SeriesTitleLanguageOrder).toEqual([]);
  });

  it('replaces a whole section, filling absent fields from defaults', () => {
    const { result, errors } = run([{ op: 'replace', path: '/LogRotator', value: { enabled: false, Delete_Days: 7 } }]);
    expect(errors).toEqual({});
    expect(result.LogRotator).toEqual({ Enabled: false, Zip: true, Delete: true, Delete_Days: '7' });
  });

  it('records failures by the type patched and keeps going', () => {
    const { result, errors } = run([
      { op: 'replace', path: '/AniDb/UDPServerPort', value: 70000 },
      { op: 'add', path: '/Import/VideoExtensions/99', value: 'X' },
      { op: 'test', path: '/Culture', value: 'fr' },
      { op: 'replace', path: '/Culture', value: 'de' },
    ]);
    expect(Object.keys(errors).sort()).toEqual(['AniDbSettings', 'ImportSettings', 'ServerSettings']);
    expect(result.Culture).toBe('de');
  });
});
