import type { ShokoFilterPresetRow as FixturePreset } from '../../../fakes/src/shoko-data/filter-presets.js';
import type { ShokoFilterPresetRow } from '../domains/shoko-import/filter-presets.js';

/** A fixture preset as its row in Shoko's FilterPreset table reads (no parent). */
export const shokoPresetRow = (preset: FixturePreset, id = 1): ShokoFilterPresetRow => ({
  FilterPresetID: id,
  ParentFilterPresetID: null,
  Name: preset.name,
  FilterType: preset.filterType,
  Locked: preset.locked ? 1 : 0,
  Hidden: preset.hidden ? 1 : 0,
  ApplyAtSeriesLevel: preset.applyAtSeriesLevel ? 1 : 0,
  Expression: preset.expression,
  SortingExpression: preset.sortingExpression,
});
