import type { ReactNode } from 'react';

/**
 * A row of joined buttons of which one is pressed (aria-pressed), for switching between views of the same content.
 * `wide` stretches the buttons over the row; `className` adds to the row's frame (such as a background).
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  wide = false,
  className = '',
  children = (option) => option,
}: {
  label: string;
  options: readonly T[];
  value: T;
  onChange: (option: T) => void;
  wide?: boolean;
  className?: string;
  /** What a button shows; the option's own text by default. */
  children?: (option: T) => ReactNode;
}) {
  return (
    <div className={`flex rounded-md border border-border ${className}`} role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`${wide ? 'flex-1 px-3 py-2' : 'px-3 py-1.5'} text-sm font-semibold first:rounded-l-md last:rounded-r-md ${value === option ? 'bg-primary text-on-primary' : 'text-muted hover:text-text'}`}
        >
          {children(option)}
        </button>
      ))}
    </div>
  );
}
