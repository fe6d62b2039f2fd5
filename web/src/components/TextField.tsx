import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  /** Messages from the server about this field; shown under it and marking the input invalid. */
  errors?: readonly string[];
  /** Something beside the input, such as a Browse button. */
  addon?: ReactNode;
}

export function TextField({ label, hint, errors, addon, className = '', id, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const invalid = !!errors?.length;
  const input = (
    <input
      id={inputId}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${inputId}-errors` : undefined}
      className={`${addon ? 'min-w-0 flex-1 ' : ''}rounded-md border bg-background-alt px-3 py-2 text-sm text-text placeholder:text-muted focus:outline-none ${invalid ? 'border-danger focus:border-danger' : 'border-border focus:border-primary'}`}
      {...rest}
    />
  );
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-semibold">
        {label}
      </label>
      {addon ? (
        <div className="flex gap-2">
          {input}
          {addon}
        </div>
      ) : (
        input
      )}
      {invalid && (
        <div id={`${inputId}-errors`} className="flex flex-col gap-0.5 text-xs font-semibold text-danger">
          {errors.map((message) => (
            <span key={message}>{message}</span>
          ))}
        </div>
      )}
      {hint && <div className="text-xs text-muted">{hint}</div>}
    </div>
  );
}
