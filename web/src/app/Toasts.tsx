import { Slide, ToastContainer } from 'react-toastify';
import { useWebUISettings } from '@/api/settings';
import { useSession } from '@/lib/session';

export const TOAST_AUTO_CLOSE_MS = 4000;

/** Toasts follow the console settings: where they appear, and whether they appear at all. */
export function Toasts() {
  const session = useSession();
  const { notifications, toastPosition } = useWebUISettings(!!session);
  if (!notifications) return null;
  return (
    <ToastContainer
      position={toastPosition}
      autoClose={TOAST_AUTO_CLOSE_MS}
      transition={Slide}
      theme="dark"
      newestOnTop
      closeOnClick
      pauseOnFocusLoss={false}
    />
  );
}
