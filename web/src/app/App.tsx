import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './queryClient';
import { router } from './router';
import { Toasts } from './Toasts';
import { ThemeRootClass } from '@/components/settings/ThemeOptionsRoot';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toasts />
      <ThemeRootClass />
    </QueryClientProvider>
  );
}
