import { Switch } from '@headlessui/react';
import type { ReactNode } from 'react';

interface ToggleProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: ReactNode;
  disabled?: boolean;
}

export function Toggle({ label, checked, onChange, description, disabled }: ToggleProps) {
  return (
    <div className="flex items-center justify-between gap-4 py-1.5">
      <div className="flex flex-col">
        <span className="text-sm">{label}</span>
        {description && <span className="text-xs text-muted">{description}</span>}
      </div>
      <Switch
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        aria-label={typeof label === 'string' ? label : undefined}
        className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-border bg-background-alt transition-colors data-[checked]:border-primary data-[checked]:bg-primary data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50"
      >
        <span className="inline-block size-4 translate-x-1 rounded-full bg-muted transition-transform group-data-[checked]:translate-x-6 group-data-[checked]:bg-on-primary" />
      </Switch>
    </div>
  );
}
