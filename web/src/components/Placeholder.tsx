import { mdiHammerWrench } from '@mdi/js';
import { Icon } from './Icon';

/** Stands in for a page whose feature has not arrived yet, naming which feature will bring it. */
export function Placeholder({ title, feature }: { title: string; feature: string }) {
  return (
    <div className="flex flex-1 items-center justify-center p-6">
      <div className="flex max-w-md flex-col items-center gap-3 rounded-xl border border-dashed border-border bg-panel px-8 py-10 text-center">
        <Icon path={mdiHammerWrench} size={1.5} className="text-primary" />
        <h1 className="text-xl font-semibold" data-testid="placeholder-title">
          {title}
        </h1>
        <p className="text-sm text-muted">
          {title} — arrives with the {feature} feature.
        </p>
      </div>
    </div>
  );
}
