import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-sm text-muted">There is nothing at this address.</p>
      <Link to="/dashboard" className="text-sm font-semibold text-primary hover:underline">
        Back to the dashboard
      </Link>
    </div>
  );
}
