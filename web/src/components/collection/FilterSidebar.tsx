import { mdiClose, mdiContentSaveOutline, mdiPlus } from '@mdi/js';
import { useState } from 'react';
import { useSavePreset } from '@/api/filters';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal, ModalFooter } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { formErrors } from '@/api/client';
import { AddConditionModal } from './AddConditionModal';
import { conditionsExpression, describeCondition, type LiveCondition } from './filterConditions';

interface FilterSidebarProps {
  conditions: LiveCondition[];
  onChange: (conditions: LiveCondition[]) => void;
  onClose: () => void;
}

/** The live filter: a list of conditions, Add Condition, and Save Preset. */
export function FilterSidebar({ conditions, onChange, onClose }: FilterSidebarProps) {
  const [adding, setAdding] = useState(false);
  const [saving, setSaving] = useState(false);
  return (
    <aside className="flex w-full shrink-0 flex-col gap-3 rounded-lg border border-border bg-panel p-4 lg:w-80" aria-label="Filter sidebar">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">Filter</h2>
        <Button variant="ghost" className="px-2" aria-label="Close filter" onClick={onClose}>
          <Icon path={mdiClose} size={0.8} />
        </Button>
      </div>
      {conditions.length === 0 ? (
        <p className="text-sm text-muted">No conditions yet. Add one to narrow the collection.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Conditions">
          {conditions.map((condition, index) => (
            <li
              key={`${condition.expression}-${index}`}
              className="flex items-start justify-between gap-2 rounded-md bg-panel-alt px-3 py-2 text-sm"
            >
              <span className="min-w-0 break-words">{describeCondition(condition)}</span>
              <button
                type="button"
                aria-label={`Remove ${condition.name}`}
                className="text-muted hover:text-text"
                onClick={() => onChange(conditions.filter((_, i) => i !== index))}
              >
                <Icon path={mdiClose} size={0.7} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setAdding(true)}>
          <Icon path={mdiPlus} size={0.8} />
          Add Condition
        </Button>
        <Button variant="secondary" onClick={() => setSaving(true)} disabled={!conditions.length}>
          <Icon path={mdiContentSaveOutline} size={0.8} />
          Save Preset
        </Button>
      </div>
      <AddConditionModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdd={(condition) => onChange([...conditions, condition])}
        used={conditions.map((c) => c.expression)}
      />
      <SavePresetModal open={saving} onClose={() => setSaving(false)} conditions={conditions} />
    </aside>
  );
}

function SavePresetModal({ open, onClose, conditions }: { open: boolean; onClose: () => void; conditions: LiveCondition[] }) {
  const [name, setName] = useState('');
  const save = useSavePreset();
  const errors = formErrors(save.error);
  const close = () => {
    setName('');
    save.reset();
    onClose();
  };
  const submit = () => {
    const expression = conditionsExpression(conditions);
    save.mutate(
      {
        Name: name.trim(),
        ApplyAtSeriesLevel: true,
        ...(expression ? { Expression: expression } : {}),
        Sorting: { Type: 'Name', IsInverted: false },
      },
      { onSuccess: close },
    );
  };
  return (
    <Modal
      open={open}
      onClose={close}
      title="Save Preset"
      size="sm"
      footer={<ModalFooter onCancel={close} action="Save" onAction={submit} disabled={!name.trim()} busy={save.isPending} />}
    >
      <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} errors={errors.fields.name} />
      {errors.general && <p className="text-danger">{errors.general}</p>}
    </Modal>
  );
}
