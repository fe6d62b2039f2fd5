import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  /** A line under the select that describes the current choice. */
  hint?: ReactNode;
  /** Classes of the field's box (label, select and hint), e.g. its width in a row. */
  className?: string;
}

/** A drop-down list with its label above it, as a form field beside TextField. */
export function SelectField({ label, hint, className = '', id, children, ...rest }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={selectId} className="text-sm font-semibold">
        {label}
      </label>
      <select
        id={selectId}
        aria-describedby={hint ? `${selectId}-hint` : undefined}
        className="rounded-md border border-border bg-background-alt px-3 py-2 text-sm"
        {...rest}
      >
        {children}
      </select>
      {hint && (
        <span id={`${selectId}-hint`} className="text-xs text-muted">
          {hint}
        </span>
      )}
    </div>
  );
}
