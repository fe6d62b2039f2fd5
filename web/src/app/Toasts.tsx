import { lazy, Suspense } from 'react';
import { useWebUISettings } from '@/api/settings';
import { useSession } from '@/lib/session';

export const TOAST_AUTO_CLOSE_MS = 4000;

/**
 * react-toastify's code (about 34 kB) comes beside the page's, not in the entry: a toast raised before its container is
 * drawn waits in react-toastify's queue until it is.
 */
const ToastContainer = lazy(async () => {
  const { Slide, ToastContainer } = await import('react-toastify');
  const WithSlide = (props: Omit<Parameters<typeof ToastContainer>[0], 'transition'>) => <ToastContainer transition={Slide} {...props} />;
  return { default: WithSlide };
});

/** Toasts follow the console settings: where they appear, and whether they appear at all. */
export function Toasts() {
  const session = useSession();
  const { notifications, toastPosition } = useWebUISettings(!!session);
  if (!notifications) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer
        position={toastPosition}
        autoClose={TOAST_AUTO_CLOSE_MS}
        theme="dark"
        newestOnTop
        closeOnClick
        pauseOnFocusLoss={false}
      />
    </Suspense>
  );
}
