import { mdiLoading } from '@mdi/js';
import { Icon } from './Icon';

export function Spinner({ size = 1.5, className = 'text-primary' }: { size?: number; className?: string }) {
  return (
    <span role="status" aria-label="Loading" className={`inline-flex ${className}`}>
      <Icon path={mdiLoading} size={size} spin />
    </span>
  );
}
