import type { ReactNode } from 'react';

/** A titled panel: a header with the title and optional actions above its content. */
export function Panel({
  title,
  actions,
  children,
  className = '',
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`flex flex-col gap-4 rounded-xl border border-border bg-panel p-5 ${className}`}>
      {(title || actions) && (
        <header className="flex items-center justify-between gap-3">
          <h2 className="text-base font-semibold">{title}</h2>
          {actions && <div className="flex items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

/** A compact panel that holds a list, one of the columns of a list/detail page; named for assistive technology by `label`. */
export function ListPanel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section aria-label={label} className="flex min-h-[12rem] flex-col gap-2 rounded-xl border border-border bg-panel p-3">
      {children}
    </section>
  );
}

/** The stand-in for a detail column while nothing is chosen: a muted sentence in the middle of an empty panel. */
export function PlaceholderPanel({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <section
      className="flex min-h-[12rem] items-center justify-center rounded-xl border border-border bg-panel p-3 text-muted"
      data-testid={testId}
    >
      {children}
    </section>
  );
}

/**
 * The strip of filters and buttons above a tab's content. With a `label` it is a toolbar for assistive technology.
 * `align` lines up the controls by their centres, or by their bottoms when some of them have a caption above.
 */
export function ToolbarPanel({ label, align = 'center', children }: { label?: string; align?: 'center' | 'end'; children: ReactNode }) {
  return (
    <div
      className={`flex flex-wrap ${align === 'end' ? 'items-end' : 'items-center'} gap-3 rounded-lg border border-border bg-panel p-3`}
      role={label ? 'toolbar' : undefined}
      aria-label={label}
    >
      {children}
    </div>
  );
}

/** The sentence shown in place of a tab's content when it has nothing to show. */
export function EmptyNote({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="rounded-lg border border-border bg-panel p-6 text-center text-muted" data-testid={testId}>
      {children}
    </p>
  );
}
