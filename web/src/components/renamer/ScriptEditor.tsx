import { useRef, type KeyboardEvent } from 'react';

interface ScriptEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * The script editor: a monospace editor with line numbers; Tab indents instead of leaving the field. Loaded lazily
 * with the config panel so the page opens without it.
 */
export default function ScriptEditor({ label, value, onChange }: ScriptEditorProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = Math.max(1, value.split('\n').length);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Tab') return;
    event.preventDefault();
    const target = event.currentTarget;
    const { selectionStart, selectionEnd } = target;
    onChange(`${value.slice(0, selectionStart)}  ${value.slice(selectionEnd)}`);
    requestAnimationFrame(() => target.setSelectionRange(selectionStart + 2, selectionStart + 2));
  };

  return (
    <div className="flex h-80 overflow-hidden rounded-md border border-border bg-background-alt font-mono text-xs focus-within:border-primary">
      <div ref={gutter} aria-hidden="true" className="select-none overflow-hidden border-r border-border px-2 py-2 text-right leading-5 text-muted">
        {Array.from({ length: lines }, (_, i) => (
          <div key={i}>{i + 1}</div>
        ))}
      </div>
      <textarea
        ref={area}
        aria-label={label}
        value={value}
        spellCheck={false}
        wrap="off"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
        className="min-w-0 flex-1 resize-none bg-transparent px-3 py-2 leading-5 text-text focus:outline-none"
      />
    </div>
  );
}
