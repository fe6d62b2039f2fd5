import { mdiArrowDown, mdiArrowUp, mdiClose } from '@mdi/js';
import { useState } from 'react';
import type { SupportedLanguage } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';

interface LanguageOrderProps {
  label: string;
  value: string[];
  languages: SupportedLanguage[];
  onChange: (value: string[]) => void;
}

const smallButton = 'flex size-7 items-center justify-center rounded text-muted hover:bg-panel hover:text-text disabled:opacity-30';

/** An ordered list of language codes: first match wins. */
export function LanguageOrder({ label, value, languages, onChange }: LanguageOrderProps) {
  const [adding, setAdding] = useState('');
  const nameOf = (code: string) => {
    if (code === 'x-main') return 'Main Title (x-main)';
    const language = languages.find((l) => l.Alpha2 === code);
    return language ? `${language.Name} (${code})` : code;
  };
  const move = (index: number, by: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item);
    onChange(next);
  };
  // x-main first, as it is the most common choice.
  const options = [...languages]
    .sort((a, b) => (a.Alpha2 === 'x-main' ? -1 : b.Alpha2 === 'x-main' ? 1 : 0))
    .filter((l) => !value.includes(l.Alpha2));

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold">{label}</legend>
      <ol className="flex flex-col gap-1 rounded-md border border-border bg-background-alt p-1">
        {value.map((code, index) => (
          <li key={code} className="flex items-center gap-2 rounded px-2 py-1">
            <span className="w-5 text-xs text-muted">{index + 1}.</span>
            <span className="flex-1">{nameOf(code)}</span>
            <button
              type="button"
              className={smallButton}
              aria-label={`Move ${code} up`}
              disabled={index === 0}
              onClick={() => move(index, -1)}
            >
              <Icon path={mdiArrowUp} size={0.7} />
            </button>
            <button
              type="button"
              className={smallButton}
              aria-label={`Move ${code} down`}
              disabled={index === value.length - 1}
              onClick={() => move(index, 1)}
            >
              <Icon path={mdiArrowDown} size={0.7} />
            </button>
            <button
              type="button"
              className={smallButton}
              aria-label={`Remove ${code}`}
              disabled={value.length === 1}
              onClick={() => onChange(value.filter((c) => c !== code))}
            >
              <Icon path={mdiClose} size={0.7} />
            </button>
          </li>
        ))}
      </ol>
      <div className="flex gap-2">
        <select
          aria-label={`Add a language to ${label}`}
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-border bg-background-alt px-2 py-1.5 text-sm"
        >
          <option value="">Add a language…</option>
          {options.map((l) => (
            <option key={l.Alpha2} value={l.Alpha2}>
              {l.Name} ({l.Alpha2})
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={!adding}
          onClick={() => {
            onChange([...value, adding]);
            setAdding('');
          }}
          className="rounded-md border border-border px-3 text-sm font-semibold hover:border-primary disabled:opacity-40"
        >
          Add
        </button>
      </div>
    </fieldset>
  );
}
