import type { ReactNode } from 'react';
import { Button } from '@/components/Button';
import { Spinner } from '@/components/Spinner';
import { Toggle } from '@/components/Toggle';
import { TextField } from '@/components/TextField';
import { SelectRow } from './SelectRow';
import type { SettingsDraft } from './useSettingsDraft';

/** The frame of a settings page: title, loading and error states, and the Cancel/Save bar. */
export function SettingsPage({ title, draft, children }: { title: string; draft: SettingsDraft; children: ReactNode }) {
  return (
    <div className="flex w-full max-w-4xl flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{title}</h1>
        <div className="flex gap-2">
          <Button variant="secondary" disabled={!draft.dirty || draft.saving} onClick={draft.reset}>
            Cancel
          </Button>
          <Button disabled={!draft.canSave} busy={draft.saving} onClick={draft.save}>
            Save
          </Button>
        </div>
      </div>
      {draft.saveError && (
        <div role="alert" className="rounded-md border border-danger px-3 py-2 text-sm text-danger">
          {draft.saveError.message}
        </div>
      )}
      {draft.loadError ? (
        <div role="alert" className="text-sm text-danger">
          {draft.loadError.message}
        </div>
      ) : draft.loading || !draft.draft ? (
        <Spinner />
      ) : (
        children
      )}
    </div>
  );
}

export function SettingToggle({
  draft,
  path,
  label,
  description,
  disabled,
}: {
  draft: SettingsDraft;
  path: string;
  label: string;
  description?: string;
  disabled?: boolean;
}) {
  return (
    <Toggle
      label={label}
      description={description}
      disabled={disabled}
      checked={!!draft.get<boolean>(path)}
      onChange={(value) => draft.set(path, value)}
    />
  );
}

export function SettingText({
  draft,
  path,
  label,
  hint,
  type = 'text',
}: {
  draft: SettingsDraft;
  path: string;
  label: string;
  hint?: ReactNode;
  type?: string;
}) {
  return (
    <TextField
      label={label}
      hint={hint}
      type={type}
      value={draft.get<string>(path) ?? ''}
      errors={draft.errorsFor(path)}
      onChange={(event) => draft.set(path, event.target.value)}
    />
  );
}

export function SettingNumber({
  draft,
  path,
  label,
  min,
  max,
}: {
  draft: SettingsDraft;
  path: string;
  label: string;
  min?: number;
  max?: number;
}) {
  const value = draft.get<number>(path);
  return (
    <TextField
      label={label}
      type="number"
      min={min}
      max={max}
      value={value ?? ''}
      errors={draft.errorsFor(path)}
      onChange={(event) => draft.set(path, event.target.value === '' ? 0 : Number(event.target.value))}
    />
  );
}

export function SettingSelect({
  draft,
  path,
  label,
  options,
}: {
  draft: SettingsDraft;
  path: string;
  label: string;
  options: readonly (readonly [string | number, string])[];
}) {
  const value = draft.get<string | number>(path);
  const numeric = typeof options[0]?.[0] === 'number';
  return (
    <SelectRow
      label={label}
      value={value ?? ''}
      onChange={(event) => draft.set(path, numeric ? Number(event.target.value) : event.target.value)}
    >
      {options.map(([key, text]) => (
        <option key={key} value={key}>
          {text}
        </option>
      ))}
    </SelectRow>
  );
}
