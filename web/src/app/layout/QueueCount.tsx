import { mdiFormatListChecks, mdiPause } from '@mdi/js';
import { Icon } from '@/components/Icon';
import { useAggregateState } from '@/realtime/AggregateHub';

export function QueueCount() {
  const { queue } = useAggregateState();
  const count = queue?.TotalCount ?? 0;
  // Paused by the user, or waiting out a fault of the database (the notice above the page says which).
  const paused = queue ? !queue.Running || !!queue.Fault : false;
  return (
    <div
      className="flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-semibold text-muted"
      title={queue ? `Queue: ${count} item(s)${paused ? ' (paused)' : ''}` : 'Queue: connecting…'}
      data-testid="queue-count"
    >
      <Icon path={paused ? mdiPause : mdiFormatListChecks} size={0.9} className={count > 0 ? 'text-primary' : undefined} />
      <span className="tabular-nums">{count}</span>
    </div>
  );
}
