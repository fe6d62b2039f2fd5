import { mdiChevronLeft, mdiChevronRight, mdiMagnify } from '@mdi/js';
import { useEffect } from 'react';
import { Icon } from '@/components/Icon';

/** Sets the tab title while a utility page is open. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [title]);
}

export function SearchBox(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  placeholder?: string;
}) {
  const { label, value, onChange, className = 'sm:w-72', placeholder = 'Search…' } = props;
  return (
    <label className={`relative flex w-full items-center ${className}`}>
      <Icon path={mdiMagnify} size={0.8} className="pointer-events-none absolute left-2.5 text-muted" />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="w-full rounded-md border border-border bg-panel py-2 pl-9 pr-3 text-sm placeholder:text-muted focus:border-primary focus:outline-none"
      />
    </label>
  );
}

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
