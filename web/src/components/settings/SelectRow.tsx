import type { SelectHTMLAttributes } from 'react';

interface SelectRowProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
}

/** A line of a settings panel: its label on the left, a drop-down list on the right (`className` styles the list). */
export function SelectRow({ label, className = '', children, ...rest }: SelectRowProps) {
  return (
    <label className="flex items-center justify-between gap-4 py-1.5 text-sm">
      <span>{label}</span>
      <select
        aria-label={label}
        className={`rounded-md border border-border bg-background-alt px-2 py-1.5 text-sm disabled:opacity-50 ${className}`}
        {...rest}
      >
        {children}
      </select>
    </label>
  );
}
