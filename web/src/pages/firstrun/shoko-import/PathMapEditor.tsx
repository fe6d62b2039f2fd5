import { mdiArrowRight, mdiPlus, mdiTrashCanOutline } from '@mdi/js';
import { useId } from 'react';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { IconButton } from '@/components/IconButton';
import type { PathMapRow } from './importRequest';

interface PathMapEditorProps {
  rows: PathMapRow[];
  onChange: (rows: PathMapRow[]) => void;
  /** Half-filled rows, by row id. */
  rowProblems: ReadonlyMap<number, string>;
  /** The server's messages about the path map. */
  errors: readonly string[];
  disabled?: boolean;
}

const inputClass =
  'min-w-0 flex-1 rounded-md border bg-background-alt px-3 py-2 font-mono text-sm text-text placeholder:font-sans placeholder:text-muted focus:outline-none';

/** Rows of "path on the Shoko machine → the same folder here", for import folders that moved or changed OS. */
export function PathMapEditor({ rows, onChange, rowProblems, errors, disabled }: PathMapEditorProps) {
  const hintId = useId();
  const errorsId = useId();
  const update = (id: number, change: Partial<PathMapRow>) => onChange(rows.map((row) => (row.id === id ? { ...row, ...change } : row)));
  const add = () => onChange([...rows, { id: Math.max(0, ...rows.map((row) => row.id)) + 1, From: '', To: '' }]);

  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${hintId}${errors.length ? ` ${errorsId}` : ''}`} disabled={disabled}>
      <legend className="mb-1.5 text-sm font-semibold">
        Path map <span className="font-normal text-muted">(optional)</span>
      </legend>
      {rows.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Path mappings">
          {rows.map((row, index) => {
            const problem = rowProblems.get(row.id);
            const invalid = (side: 'From' | 'To') => !!problem && !row[side].trim();
            return (
              <li key={row.id} className="flex flex-col gap-1" data-testid="path-map-row">
                <div className="flex items-center gap-2">
                  <input
                    aria-label={`Mapping ${index + 1}: path on the Shoko machine`}
                    aria-invalid={invalid('From') || undefined}
                    placeholder="D:\Anime\"
                    value={row.From}
                    onChange={(event) => update(row.id, { From: event.target.value })}
                    className={`${inputClass} ${invalid('From') ? 'border-danger' : 'border-border focus:border-primary'}`}
                  />
                  <Icon path={mdiArrowRight} size={0.8} className="shrink-0 text-muted" />
                  <input
                    aria-label={`Mapping ${index + 1}: the same folder here`}
                    aria-invalid={invalid('To') || undefined}
                    placeholder="/srv/anime/"
                    value={row.To}
                    onChange={(event) => update(row.id, { To: event.target.value })}
                    className={`${inputClass} ${invalid('To') ? 'border-danger' : 'border-border focus:border-primary'}`}
                  />
                  <IconButton
                    icon={mdiTrashCanOutline}
                    label={`Remove mapping ${index + 1}`}
                    hover="danger"
                    onClick={() => onChange(rows.filter((other) => other.id !== row.id))}
                  />
                </div>
                {problem && <span className="text-xs font-semibold text-warning">{problem}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {errors.length > 0 && (
        <div id={errorsId} className="flex flex-col gap-0.5 text-xs font-semibold text-danger" data-testid="path-map-errors">
          {errors.map((message) => (
            <span key={message}>{message}</span>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={add} className="px-3 py-1.5">
          <Icon path={mdiPlus} size={0.75} />
          Add mapping
        </Button>
        <p id={hintId} className="flex-1 text-xs text-muted">
          Only for import folders that moved or are now on another OS: map the start of the path as Shoko knew it (
          <code className="font-mono">D:\Anime\</code>) to where that folder is on this machine (
          <code className="font-mono">/srv/anime/</code>
          ).
        </p>
      </div>
    </fieldset>
  );
}
