import type { ReactNode } from 'react';

interface ToggleProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: ReactNode;
  disabled?: boolean;
}

/**
 * An on/off switch: a button with the switch role (Space and Enter toggle it, as any button's click), drawn without a
 * component library so that the pages and the signed-in layout that show one load none.
 */
export function Toggle({ label, checked, onChange, description, disabled }: ToggleProps) {
  return (
    <div className="flex items-center justify-between gap-4 py-1.5">
      <div className="flex flex-col">
        <span className="text-sm">{label}</span>
        {description && <span className="text-xs text-muted">{description}</span>}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        data-checked={checked ? '' : undefined}
        data-disabled={disabled ? '' : undefined}
        onClick={() => onChange(!checked)}
        aria-label={typeof label === 'string' ? label : undefined}
        className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-border bg-background-alt transition-colors data-[checked]:border-primary data-[checked]:bg-primary data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50"
      >
        <span className="inline-block size-4 translate-x-1 rounded-full bg-muted transition-transform group-data-[checked]:translate-x-6 group-data-[checked]:bg-on-primary" />
      </button>
    </div>
  );
}
