import { describe, expect, it } from 'vitest';
import { DEFAULT_RENAMER_SCRIPT, SCRIPT_RENAMER_DEFAULT_SETTINGS, SCRIPT_RENAMER_ID } from '@shoko-ts/contract';
import { defaultSettingsOf, scriptRenamer, DEFAULT_SCRIPT } from '../../domains/renamer/index.js';

// The migration seeds the `Default` config from the contract's copy of the script renamer's defaults (db sits below the
// domains); these must stay what the renamer itself declares.
describe('migration 0006 seed', () => {
  it("is the script renamer's ID and default settings", () => {
    expect(SCRIPT_RENAMER_ID).toBe(scriptRenamer.id);
    expect(SCRIPT_RENAMER_DEFAULT_SETTINGS).toEqual(defaultSettingsOf(scriptRenamer));
    expect(DEFAULT_RENAMER_SCRIPT).toBe(DEFAULT_SCRIPT);
  });
});
