import { describe, expect, it } from 'vitest';
import { SHOKO_DEFAULT_PRESETS } from '../../../../fakes/src/shoko-data/filter-presets.js';
import { PRESET_SEEDS } from '../../db/collection-defaults.js';
import { FieldErrorCollector } from '../../http/problem.js';
import { shokoPresetRow } from '../../test/shoko-preset-row.js';
import { mapShokoFilterPreset } from '../shoko-import/index.js';
import { titleCase } from './dynamic-directories.js';
import { normaliseCondition, normaliseSorting } from './compiler/index.js';

describe('the presets a new collection starts with', () => {
  it("are Shoko's own, as a Shoko database holds them read through the import", () => {
    for (const shoko of SHOKO_DEFAULT_PRESETS) {
      const seed = PRESET_SEEDS.find((p) => p.name === shoko.name);
      expect(seed, shoko.name).toBeDefined();
      const mapped = mapShokoFilterPreset(shokoPresetRow(shoko));
      if (!mapped.ok) throw new Error(mapped.reason);
      // The stored text itself, so a seeded row reads back exactly as an imported or API-saved one.
      expect(
        {
          isLocked: seed!.isLocked,
          isDirectory: seed!.isDirectory,
          applyAtSeriesLevel: seed!.applyAtSeriesLevel,
          expression: seed!.expression && JSON.stringify(seed!.expression),
          sorting: seed!.sorting && JSON.stringify(seed!.sorting),
        },
        shoko.name,
      ).toEqual({
        isLocked: mapped.filter.isLocked,
        isDirectory: mapped.filter.isDirectory,
        applyAtSeriesLevel: mapped.filter.applyAtSeriesLevel,
        expression: mapped.filter.expression,
        sorting: mapped.filter.sorting,
      });
    }
    expect(PRESET_SEEDS.filter((p) => !p.dynamic).map((p) => p.name)).toHaveLength(SHOKO_DEFAULT_PRESETS.length);
  });

  it('are written in the form the API validation leaves them in', () => {
    for (const seed of PRESET_SEEDS) {
      const errors = new FieldErrorCollector();
      expect(normaliseCondition(seed.expression, errors), seed.name).toEqual(seed.expression);
      expect(normaliseSorting(seed.sorting, errors), seed.name).toEqual(seed.sorting);
      errors.throwIfAny();
    }
  });
});

describe('titleCase (the names of the Tags directory sub-filters)', () => {
  it('capitalises each word and keeps words written in capitals', () => {
    expect(titleCase('action')).toBe('Action');
    expect(titleCase('sci-fi')).toBe('Sci-Fi');
    expect(titleCase("girls' love")).toBe("Girls' Love");
    expect(titleCase('18 restricted')).toBe('18 Restricted');
    expect(titleCase('CGI')).toBe('CGI');
    expect(titleCase('maNga')).toBe('Manga');
    expect(titleCase('élite squad')).toBe('Élite Squad');
  });
});
