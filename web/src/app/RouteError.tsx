import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { reportError } from '@/lib/errorReporting';

export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportError(error), [error]);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <pre className="max-w-2xl whitespace-pre-wrap rounded-lg border border-border bg-panel p-4 text-left text-sm text-muted">
        {message}
      </pre>
      <Link to="/" className="rounded-md bg-primary px-4 py-2 text-sm font-semibold text-on-primary" reloadDocument>
        Reload the console
      </Link>
    </div>
  );
}
