import type { ReactNode } from 'react';

/** The count beside a page's title ("12 series"), an ellipsis while it is still loading. */
export function CountBadge({ pending, testId, children }: { pending: boolean; testId: string; children: ReactNode }) {
  return (
    <span className="rounded-full bg-panel-alt px-2 py-0.5 text-xs font-semibold text-muted" data-testid={testId}>
      {pending ? '…' : children}
    </span>
  );
}
