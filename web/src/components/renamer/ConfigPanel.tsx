import { lazy, Suspense, useState } from 'react';
import { toast } from 'react-toastify';
import type { Renamer, RenamerConfig, RenamerSetting, RenamerSettingDefinition } from '@shoko-ts/contract';
import { useCreateConfig, useDeleteConfig, useRenameConfig, useSaveConfig } from '@/api/renamer';
import { useSaveSettings, withSetting, type SettingsDocument } from '@/api/settings';
import { Button } from '@/components/Button';
import { Spinner } from '@/components/Spinner';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { Toggle } from '@/components/Toggle';
import { clampSetting, TEXTS } from './renamerState';
import { ConfigModal } from './ConfigModal';

const ScriptEditor = lazy(() => import('./ScriptEditor'));

interface ConfigPanelProps {
  configs: RenamerConfig[];
  renamers: Renamer[];
  /** The selected config's renamer (setting definitions). */
  renamer: Renamer | undefined;
  selected: RenamerConfig | undefined;
  onSelect: (name: string) => void;
  settings: RenamerSetting[];
  onSettingsChange: (settings: RenamerSetting[]) => void;
  edited: boolean;
  serverSettings: SettingsDocument | undefined;
  defaultName: string | null;
}

/** Config select, Set as default, Delete, Rename, New, Save, the settings of the selected config and its script. */
export function ConfigPanel({
  configs,
  renamers,
  renamer,
  selected,
  onSelect,
  settings,
  onSettingsChange,
  edited,
  serverSettings,
  defaultName,
}: ConfigPanelProps) {
  const [modal, setModal] = useState<'new' | 'rename' | null>(null);
  const create = useCreateConfig();
  const rename = useRenameConfig();
  const save = useSaveConfig();
  const remove = useDeleteConfig();
  const saveSettings = useSaveSettings();
  const isDefault = !!selected && selected.Name === defaultName;
  const definitions = renamer?.Settings ?? [];

  const setValue = (name: string, value: RenamerSetting['Value']) =>
    onSettingsChange(settings.map((s) => (s.Name === name ? { ...s, Value: value } : s)));
  const valueOf = (name: string) => settings.find((s) => s.Name === name)?.Value ?? null;

  const onModalSave = (name: string, renamerId: string) => {
    const previous = selected?.Name;
    const done = {
      onSuccess: () => {
        onSelect(name);
        setModal(null);
      },
      onError: () => {
        toast.error(TEXTS.configError);
        if (previous) onSelect(previous);
      },
    };
    if (modal === 'rename' && selected) rename.mutate({ from: selected.Name, to: name }, done);
    else
      create.mutate(
        { Name: name, RenamerID: renamerId, Settings: renamers.find((r) => r.RenamerID === renamerId)?.DefaultSettings ?? null },
        done,
      );
  };

  const saveDisabled = !definitions.length ? TEXTS.noSettings : null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <SelectField label="Config" className="min-w-56 flex-1" value={selected?.Name ?? ''} onChange={(e) => onSelect(e.target.value)}>
          {configs.map((c) => (
            <option key={c.Name} value={c.Name}>
              {c.Name}
              {c.Name === defaultName ? ' (default)' : ''}
            </option>
          ))}
        </SelectField>
        <span title={isDefault ? TEXTS.alreadyDefault : undefined}>
          <Button
            variant="secondary"
            disabled={!selected || isDefault || !serverSettings}
            busy={saveSettings.isPending}
            onClick={() =>
              saveSettings.mutate(
                { original: serverSettings!, changed: withSetting(serverSettings!, 'Plugins.Renamer.DefaultRenamer', selected!.Name) },
                {
                  onError: (error) => toast.error(error.message),
                  onSuccess: () => toast.success(`"${selected!.Name}" is now the default config.`),
                },
              )
            }
          >
            Set as default
          </Button>
        </span>
        <span title={isDefault ? TEXTS.deleteDefault : undefined}>
          <Button
            variant="secondary"
            disabled={!selected || isDefault}
            busy={remove.isPending}
            onClick={() =>
              remove.mutate(selected!.Name, {
                onSuccess: () => onSelect(defaultName ?? configs.find((c) => c.Name !== selected!.Name)?.Name ?? ''),
                onError: () => toast.error(`"${selected!.Name}" could not be deleted!`),
              })
            }
          >
            Delete
          </Button>
        </span>
        <Button variant="secondary" disabled={!selected} onClick={() => setModal('rename')}>
          Rename
        </Button>
        <Button variant="secondary" onClick={() => setModal('new')}>
          New
        </Button>
        <span title={saveDisabled ?? undefined}>
          <Button
            disabled={!selected || !!saveDisabled || !edited}
            busy={save.isPending}
            onClick={() =>
              save.mutate(
                { Name: selected!.Name, RenamerID: selected!.RenamerID, Settings: settings },
                {
                  onSuccess: () => toast.success(`"${selected!.Name}" saved.`),
                  onError: () => toast.error(`"${selected!.Name}" could not be saved!`),
                },
              )
            }
          >
            Save
          </Button>
        </span>
      </div>
      {renamer && <p className="text-xs text-muted">{renamer.Description}</p>}
      {definitions
        .filter((d) => d.SettingType !== 'Code' && d.SettingType !== 'LargeText')
        .map((d) => (
          <SettingField key={d.Name} definition={d} value={valueOf(d.Name)} onChange={(v) => setValue(d.Name, v)} />
        ))}
      {definitions
        .filter((d) => d.SettingType === 'Code' || d.SettingType === 'LargeText')
        .map((d) => (
          <div key={d.Name} className="flex flex-col gap-1.5">
            <span className="text-sm font-semibold">{d.Name}</span>
            <Suspense fallback={<Spinner size={1} />}>
              <ScriptEditor label={d.Name} value={String(valueOf(d.Name) ?? '')} onChange={(v) => setValue(d.Name, v)} />
            </Suspense>
          </div>
        ))}
      {modal && (
        <ConfigModal
          mode={modal}
          current={modal === 'rename' ? selected : undefined}
          renamers={renamers}
          existingNames={configs.map((c) => c.Name)}
          busy={create.isPending || rename.isPending}
          onClose={() => setModal(null)}
          onSave={onModalSave}
        />
      )}
    </div>
  );
}

function SettingField({
  definition,
  value,
  onChange,
}: {
  definition: RenamerSettingDefinition;
  value: RenamerSetting['Value'];
  onChange: (value: RenamerSetting['Value']) => void;
}) {
  if (definition.SettingType === 'Boolean')
    return (
      <Toggle label={definition.Name} description={definition.Description ?? undefined} checked={value === true} onChange={onChange} />
    );
  if (definition.SettingType === 'Integer' || definition.SettingType === 'Decimal') {
    return (
      <TextField
        label={definition.Name}
        type="number"
        min={definition.MinimumValue}
        max={definition.MaximumValue}
        step={definition.SettingType === 'Integer' ? 1 : 'any'}
        hint={definition.Description ?? undefined}
        value={typeof value === 'number' ? value : ''}
        onChange={(e) => e.target.value !== '' && onChange(clampSetting(definition, Number(e.target.value)))}
        className="max-w-xs"
      />
    );
  }
  return (
    <TextField
      label={definition.Name}
      hint={definition.Description ?? undefined}
      value={String(value ?? '')}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
