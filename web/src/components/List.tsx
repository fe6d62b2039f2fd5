import { mdiChevronLeft, mdiChevronRight } from '@mdi/js';
import type { ReactNode } from 'react';
import { Icon } from '@/components/Icon';

/** "Page x of y" with previous/next buttons; hidden when everything fits on one page. */
export function Pager({
  label,
  page,
  pageSize,
  total,
  onPage,
}: {
  label: string;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const button = 'rounded-md p-1 text-muted hover:bg-panel-alt hover:text-text disabled:opacity-40 disabled:hover:bg-transparent';
  return (
    <nav aria-label={label} className="flex items-center justify-end gap-2 text-sm text-muted">
      <button type="button" className={button} aria-label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Icon path={mdiChevronLeft} size={0.9} />
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className={button} aria-label="Next page" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <Icon path={mdiChevronRight} size={0.9} />
      </button>
    </nav>
  );
}

/** The loading, error and empty states of a list, or nothing once it has rows. */
export function ListState({
  loading,
  error,
  empty,
  emptyText,
  loadingText = 'Loading…',
}: {
  loading: boolean;
  error: Error | null;
  empty: boolean;
  emptyText: string;
  loadingText?: string;
}) {
  if (loading) return <p className="p-8 text-center text-muted">{loadingText}</p>;
  if (error) return <p className="p-8 text-center font-semibold text-danger">{error.message}</p>;
  if (empty)
    return (
      <p className="p-8 text-center text-muted" data-testid="list-empty">
        {emptyText}
      </p>
    );
  return null;
}

/**
 * A scrolling list of buttons of which one is chosen (aria-current), as the series lists on the left of the
 * utility pages. `children` draws an item's content inside its button.
 */
export function SelectableList<T>({
  items,
  getKey,
  selectedKey,
  onSelect,
  testId,
  children,
}: {
  items: readonly T[];
  getKey: (item: T) => number;
  selectedKey: number | undefined;
  onSelect: (item: T) => void;
  /** data-testid of each item's button. */
  testId?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-auto">
      {items.map((item) => {
        const key = getKey(item);
        const chosen = key === selectedKey;
        return (
          <li key={key}>
            <button
              type="button"
              data-testid={testId}
              aria-current={chosen || undefined}
              onClick={() => onSelect(item)}
              className={`flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm ${chosen ? 'bg-primary text-on-primary' : 'hover:bg-panel-alt'}`}
            >
              {children(item)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
