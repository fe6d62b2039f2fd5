import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
}

export function TextField({ label, hint, className = '', id, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={inputId}
        className="rounded-md border border-border bg-background-alt px-3 py-2 text-sm text-text placeholder:text-muted focus:border-primary focus:outline-none"
        {...rest}
      />
      {hint && <div className="text-xs text-muted">{hint}</div>}
    </div>
  );
}
