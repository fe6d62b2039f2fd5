import { useState } from 'react';
import type { Renamer } from '@shoko-ts/contract';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { configModalSave } from './renamerState';

interface ConfigModalProps {
  mode: 'new' | 'rename';
  /** The config being renamed. */
  current?: { Name: string; RenamerID: string };
  renamers: Renamer[];
  existingNames: string[];
  busy: boolean;
  onClose: () => void;
  onSave: (name: string, renamerId: string) => void;
}

/** 'New Config' (name and renamer) or 'Rename Config' (name only). */
export function ConfigModal({ mode, current, renamers, existingNames, busy, onClose, onSave }: ConfigModalProps) {
  const [name, setName] = useState(current?.Name ?? '');
  const [renamerId, setRenamerId] = useState(current?.RenamerID ?? renamers.find((r) => r.Enabled)?.RenamerID ?? '');
  const save = configModalSave({ name, renamerId, existing: existingNames });
  return (
    <Modal
      open
      size="sm"
      onClose={onClose}
      title={mode === 'new' ? 'New Config' : 'Rename Config'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <span title={save.tooltip ?? undefined}>
            <Button disabled={save.disabled} busy={busy} onClick={() => onSave(name.trim(), renamerId)}>
              Save
            </Button>
          </span>
        </>
      }
    >
      <TextField
        label="Name"
        value={name}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog exists to type a config name; focus starts in that field
        autoFocus
        onChange={(e) => setName(e.target.value)}
        errors={save.tooltip ? [save.tooltip] : undefined}
      />
      {mode === 'new' && (
        <SelectField label="Renamer" value={renamerId} onChange={(e) => setRenamerId(e.target.value)}>
          {renamers
            .filter((r) => r.Enabled)
            .map((r) => (
              <option key={r.RenamerID} value={r.RenamerID}>
                {r.Name}
              </option>
            ))}
        </SelectField>
      )}
    </Modal>
  );
}
