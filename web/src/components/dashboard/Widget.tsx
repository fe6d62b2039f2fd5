import type { ReactNode } from 'react';
import { Spinner } from '@/components/Spinner';

interface WidgetProps {
  title: string;
  /** Shown after the title, e.g. an item count. */
  count?: number;
  actions?: ReactNode;
  /** The query behind the widget: loading and error states come from it. */
  state: { isPending: boolean; error: Error | null };
  /** True when the data is there but has nothing to show; `emptyText` is shown then. */
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
  className?: string;
  testId: string;
}

/** One dashboard panel: title bar, and a body that shows loading, the error, the empty text or the content. */
export function Widget({ title, count, actions, state, isEmpty, emptyText, children, className = '', testId }: WidgetProps) {
  let body: ReactNode = children;
  if (state.isPending)
    body = (
      <div className="flex flex-1 items-center justify-center">
        <Spinner />
      </div>
    );
  else if (state.error) body = <p className="flex flex-1 items-center justify-center text-center text-danger">{state.error.message}</p>;
  else if (isEmpty) body = <p className="flex flex-1 items-center justify-center py-6 text-center font-semibold text-muted">{emptyText}</p>;
  return (
    <section
      className={`flex min-h-0 min-w-0 flex-col gap-3 rounded-xl border border-border bg-panel p-4 ${className}`}
      data-testid={testId}
      aria-label={title}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">
          {title}
          {count !== undefined && <span className="ml-2 text-primary tabular-nums">{count}</span>}
        </h2>
        {actions && <div className="flex items-center gap-1">{actions}</div>}
      </header>
      <div className="flex min-h-0 flex-1 flex-col">{body}</div>
    </section>
  );
}

/** A two-way switch in a widget header (Episodes/Series, My Collection/All). */
export function SegmentToggle<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: Array<[T, string]>;
  onChange: (value: T) => void;
  label: string;
}) {
  return (
    <div role="group" aria-label={label} className="flex rounded-md border border-border p-0.5 text-xs font-semibold">
      {options.map(([option, text]) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded px-2 py-1 ${value === option ? 'bg-primary text-on-primary' : 'text-muted hover:text-text'}`}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
