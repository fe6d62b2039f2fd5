import { describe, expect, it } from 'vitest';
import { compare } from 'fast-json-patch';
import { DEFAULT_WEBUI_SETTINGS, getSetting, parseWebUISettings, withSetting } from './settings';

describe('settings helpers', () => {
  it('parses empty WebUI_Settings as defaults', () => {
    expect(parseWebUISettings('')).toEqual(DEFAULT_WEBUI_SETTINGS);
    expect(parseWebUISettings('not json')).toEqual(DEFAULT_WEBUI_SETTINGS);
    expect(parseWebUISettings('{"toastPosition":"top-right"}').toastPosition).toBe('top-right');
  });

  it('edits by path and diffs into a JSON Patch', () => {
    const original = { AniDb: { Username: null, Password: null, DownloadCharacters: true } };
    const changed = withSetting(withSetting(original, 'AniDb.Username', 'me'), 'AniDb.Password', 'pw');
    expect(getSetting(changed, 'AniDb.Username')).toBe('me');
    expect(original.AniDb.Username).toBeNull();
    expect(compare(original, changed)).toEqual([
      { op: 'replace', path: '/AniDb/Password', value: 'pw' },
      { op: 'replace', path: '/AniDb/Username', value: 'me' },
    ]);
  });
});
