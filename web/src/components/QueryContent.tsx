import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '@/components/Spinner';

interface QueryContentProps<T> {
  query: UseQueryResult<T, Error>;
  /** Drawn instead of the content when the answer has nothing to show (an empty note); false while it has. */
  empty?: ReactNode;
  /** The content, drawn once the answer is there. */
  children: (data: T) => ReactNode;
}

/** A query's part of a page: a spinner while it loads, its error when it failed, `empty`, or the content. */
export function QueryContent<T>({ query, empty, children }: QueryContentProps<T>) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <p className="text-danger">{query.error.message}</p>;
  if (empty) return empty;
  return children(query.data);
}
