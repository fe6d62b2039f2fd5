import { describe, expect, it } from 'vitest';
import { clampSetting, configModalSave, fileNameOf, renameDisabledReason, rowStatus, settingsEqual, TEXTS } from './renamerState';

describe('renamer page rules', () => {
  const ready = { renaming: false, edited: false, fileCount: 3, move: true, rename: false };

  it('gives the first reason Rename Files is disabled', () => {
    expect(renameDisabledReason(ready)).toBeNull();
    expect(renameDisabledReason({ ...ready, renaming: true, edited: true })).toBe('Renaming in progress...');
    expect(renameDisabledReason({ ...ready, edited: true, fileCount: 0 })).toBe(
      'Config has been edited, please save before renaming files',
    );
    expect(renameDisabledReason({ ...ready, fileCount: 0 })).toBe('No files added');
    expect(renameDisabledReason({ ...ready, move: false })).toBe('Neither rename nor move is selected. No action to be performed');
  });

  it('blocks config modal Save on empty names, no renamer and taken names', () => {
    expect(configModalSave({ name: 'New', renamerId: 'WebAOM', existing: ['Default'] })).toEqual({ disabled: false, tooltip: null });
    expect(configModalSave({ name: ' ', renamerId: 'WebAOM', existing: [] }).disabled).toBe(true);
    expect(configModalSave({ name: 'X', renamerId: '', existing: [] }).disabled).toBe(true);
    expect(configModalSave({ name: 'Default', renamerId: 'WebAOM', existing: ['Default'] })).toEqual({
      disabled: true,
      tooltip: TEXTS.sameName,
    });
  });

  it('derives row status from the preview or the rename result', () => {
    expect(rowStatus(undefined, undefined)).toBe('loading');
    expect(rowStatus({ FileID: 1, IsSuccess: false }, undefined)).toBe('failed');
    expect(rowStatus({ FileID: 1, IsSuccess: true, IsRelocated: false }, undefined)).toBe('no-change');
    expect(rowStatus({ FileID: 1, IsSuccess: true, IsRelocated: true }, undefined)).toBe('pending');
    expect(rowStatus({ FileID: 1, IsSuccess: true, IsRelocated: true }, { FileID: 1, IsSuccess: true })).toBe('successful');
    expect(rowStatus({ FileID: 1, IsSuccess: true }, { FileID: 1, IsSuccess: false })).toBe('failed');
  });

  it('clamps numeric settings to their range and compares settings', () => {
    const definition = {
      Name: 'Max Episode Length',
      Description: null,
      SettingType: 'Integer' as const,
      MinimumValue: 1,
      MaximumValue: 250,
    };
    expect(clampSetting(definition, 0)).toBe(1);
    expect(clampSetting(definition, 999)).toBe(250);
    expect(clampSetting(definition, 12.6)).toBe(13);
    expect(settingsEqual([{ Name: 'a', Value: 1 }], [{ Name: 'a', Value: 1 }])).toBe(true);
    expect(settingsEqual([{ Name: 'a', Value: 1 }], [{ Name: 'a', Value: 2 }])).toBe(false);
    expect(fileNameOf('dir/sub\\file.mkv')).toBe('file.mkv');
  });
});
