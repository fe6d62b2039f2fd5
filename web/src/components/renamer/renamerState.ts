import type { RelocationResult, RenamerConfig, RenamerSetting, RenamerSettingDefinition } from '@shoko-ts/contract';

/** Texts of SPEC §5 and §8. */
export const TEXTS = {
  renaming: 'Renaming in progress...',
  edited: 'Config has been edited, please save before renaming files',
  noFiles: 'No files added',
  nothingToDo: 'Neither rename nor move is selected. No action to be performed',
  sameName: 'Another config with the same name already exists!',
  alreadyDefault: 'Already set as default!',
  deleteDefault: 'Cannot delete default config!',
  noSettings: 'Renamer does not have any settings to save.',
  configError: 'Error while renaming/creating config!',
  noFilesSelected: 'No files selected!',
} as const;

/** Why Rename Files is disabled, or null when it can run (first reason wins). */
export function renameDisabledReason(state: {
  renaming: boolean;
  edited: boolean;
  fileCount: number;
  move: boolean;
  rename: boolean;
}): string | null {
  if (state.renaming) return TEXTS.renaming;
  if (state.edited) return TEXTS.edited;
  if (state.fileCount === 0) return TEXTS.noFiles;
  if (!state.move && !state.rename) return TEXTS.nothingToDo;
  return null;
}

/** Config modal Save: disabled without a name or renamer, or when the name is taken (with its tooltip). */
export function configModalSave(state: { name: string; renamerId: string; existing: readonly string[] }): {
  disabled: boolean;
  tooltip: string | null;
} {
  if (state.existing.includes(state.name)) return { disabled: true, tooltip: TEXTS.sameName };
  return { disabled: !state.name.trim() || !state.renamerId, tooltip: null };
}

export type RenameStatus = 'failed' | 'no-change' | 'pending' | 'successful' | 'loading';

/** Status icon of one row: a real rename result wins over the preview. */
export function rowStatus(preview: RelocationResult | undefined, renamed: RelocationResult | undefined): RenameStatus {
  const result = renamed ?? preview;
  if (!result) return 'loading';
  if (!result.IsSuccess) return 'failed';
  if (renamed) return 'successful';
  return result.IsRelocated ? 'pending' : 'no-change';
}

/** Values by setting name, in the renamer's setting order, for the editor. */
export function settingsOf(config: RenamerConfig | undefined): RenamerSetting[] {
  return config?.Settings?.map((s) => ({ Name: s.Name, Value: s.Value ?? null })) ?? [];
}

export function settingsEqual(a: readonly RenamerSetting[], b: readonly RenamerSetting[]): boolean {
  return a.length === b.length && a.every((s, i) => s.Name === b[i].Name && (s.Value ?? null) === (b[i].Value ?? null));
}

/** A numeric setting's value kept within its definition's range. */
export function clampSetting(definition: RenamerSettingDefinition, value: number): number {
  let result = definition.SettingType === 'Integer' ? Math.round(value) : value;
  if (definition.MinimumValue !== undefined) result = Math.max(definition.MinimumValue, result);
  if (definition.MaximumValue !== undefined) result = Math.min(definition.MaximumValue, result);
  return result;
}

/** The file name part of a relative path (either separator). */
export const fileNameOf = (relativePath: string | undefined) => (relativePath ?? '').split(/[\\/]/).pop() ?? '';
