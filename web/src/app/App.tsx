import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { queryClient } from './queryClient';
import { router } from './router';
import { Toasts } from './Toasts';
import { ThemeRootClass } from '@/components/settings/ThemeOptionsRoot';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      {/* Router state changes render at once, not as transitions: the first page's render was time-sliced, and its
          content came out after ~130 ms of wall time for ~60 ms of work. Route code is loaded before the state changes,
          so nothing suspends on a navigation. */}
      <RouterProvider router={router} useTransitions={false} />
      <Toasts />
      <ThemeRootClass />
    </QueryClientProvider>
  );
}
