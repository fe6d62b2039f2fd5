import { useMemo, useState } from 'react';
import type { FilterExpressionHelp } from '@shoko-ts/contract';
import { useFilterCriteria } from '@/api/filters';
import { Checkbox } from '@/components/Checkbox';
import { Modal, ModalFooter } from '@/components/Modal';
import { SearchBox } from '@/components/SearchBox';
import { SelectField } from '@/components/SelectField';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { parameterKind, type LiveCondition } from './filterConditions';

interface AddConditionModalProps {
  open: boolean;
  onClose: () => void;
  onAdd: (condition: LiveCondition) => void;
  /** Criteria already in the sidebar are not offered again. */
  used: string[];
}

/** Picks a criterion of the catalogue and its values; Add is enabled only once a criterion (and a value) is chosen. */
export function AddConditionModal({ open, onClose, onAdd, used }: AddConditionModalProps) {
  const criteria = useFilterCriteria();
  const [expression, setExpression] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [exclude, setExclude] = useState(false);
  const [matchMode, setMatchMode] = useState<'Or' | 'And'>('Or');
  const [valueSearch, setValueSearch] = useState('');
  const available = useMemo(() => (criteria.data ?? []).filter((c) => !used.includes(c.Expression)), [criteria.data, used]);
  const criterion: FilterExpressionHelp | undefined = available.find((c) => c.Expression === expression);
  const kind = criterion ? parameterKind(criterion) : 'none';
  const options = criterion
    ? kind === 'pairs'
      ? (criterion.PossibleParameterPairs ?? []).map((p) => p.join('|'))
      : (criterion.PossibleParameters ?? [])
    : [];
  const shown = options.filter((o) => o.toLowerCase().includes(valueSearch.trim().toLowerCase())).slice(0, 200);
  const picked = kind === 'text' ? (text.trim() ? [text.trim()] : []) : values;
  const ready = !!criterion && (kind === 'none' || picked.length > 0);

  const reset = () => {
    setExpression('');
    setValues([]);
    setText('');
    setExclude(false);
    setMatchMode('Or');
    setValueSearch('');
  };
  const close = () => {
    reset();
    onClose();
  };
  const add = () => {
    if (!criterion || !ready) return;
    onAdd({ expression: criterion.Expression, name: criterion.Name, values: picked, exclude, matchMode });
    close();
  };
  const isTag = expression === 'HasTag' || expression === 'HasCustomTag';

  return (
    <Modal
      open={open}
      onClose={close}
      title="Add Condition"
      footer={<ModalFooter onCancel={close} action="Add" onAction={add} disabled={!ready} />}
    >
      {criteria.isPending ? (
        <Spinner />
      ) : criteria.isError ? (
        <p className="text-danger">Filter criteria could not be loaded.</p>
      ) : (
        <>
          <SelectField
            label="Criterion"
            value={expression}
            onChange={(event) => {
              setExpression(event.target.value);
              setValues([]);
              setText('');
            }}
          >
            <option value="">Select a criterion…</option>
            {available.map((c) => (
              <option key={c.Expression} value={c.Expression}>
                {c.Name}
              </option>
            ))}
          </SelectField>
          {criterion && <p className="text-muted">{criterion.Description}</p>}
          {kind === 'text' && <TextField label="Value" value={text} onChange={(event) => setText(event.target.value)} />}
          {(kind === 'choices' || kind === 'pairs') && (
            <div className="flex flex-col gap-2">
              <SearchBox label="Search values" value={valueSearch} onChange={setValueSearch} className="" onPanel />
              <div
                className="flex max-h-56 flex-col gap-1 overflow-y-auto rounded-md border border-border p-2"
                role="group"
                aria-label="Values"
              >
                {shown.length === 0 && <span className="text-muted">No values available.</span>}
                {shown.map((option) => (
                  <Checkbox
                    key={option}
                    label={option.replace('|', ' ')}
                    checked={values.includes(option)}
                    onChange={(checked) => setValues((current) => (checked ? [...current, option] : current.filter((v) => v !== option)))}
                  />
                ))}
              </div>
              {!isTag && values.length > 1 && (
                <label className="flex items-center gap-2">
                  <span>Match</span>
                  <select
                    aria-label="Match mode"
                    value={matchMode}
                    onChange={(event) => setMatchMode(event.target.value as 'Or' | 'And')}
                    className="rounded-md border border-border bg-panel-alt px-2 py-1"
                  >
                    <option value="Or">any (Or)</option>
                    <option value="And">all (And)</option>
                  </select>
                </label>
              )}
            </div>
          )}
          {criterion && (kind === 'none' || isTag) && (
            <Checkbox
              label={isTag ? 'Exclude the selected tags' : 'Exclude (match items without this)'}
              checked={exclude}
              onChange={setExclude}
            />
          )}
        </>
      )}
    </Modal>
  );
}
