import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { queryClient } from './queryClient';
import { router } from './router';
import { Toasts } from './Toasts';
import { ThemeRootClass } from '@/components/settings/ThemeOptionsRoot';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toasts />
      <ThemeRootClass />
    </QueryClientProvider>
  );
}
