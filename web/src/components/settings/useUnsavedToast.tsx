import { useEffect, useRef, type ReactNode } from 'react';
import { toast, type Id } from 'react-toastify';

let shown = 0;

/**
 * A persistent notice shown while `active` holds, gone when it stops holding or the page unmounts. Each showing gets
 * its own toast id: the toast library drops a new toast whose id still belongs to one playing its closing animation,
 * so reusing one id would lose the notice when `active` flips off and on again quickly.
 */
export function usePersistentNotice(active: boolean, id: string, title: string, text: ReactNode) {
  const toastId = useRef<Id | null>(null);
  useEffect(() => {
    if (active && toastId.current === null) {
      shown += 1;
      toastId.current = toast.info(
        <div>
          <div className="font-semibold">{title}</div>
          <div className="text-sm">{text}</div>
        </div>,
        { autoClose: false, closeButton: false, closeOnClick: false, toastId: `${id}-${shown}` },
      );
    } else if (!active && toastId.current !== null) {
      toast.dismiss(toastId.current);
      toastId.current = null;
    }
  }, [active, id, title, text]);
  useEffect(
    () => () => {
      if (toastId.current !== null) toast.dismiss(toastId.current);
    },
    [],
  );
}

/** The 'Unsaved Changes' notice every settings page shows while its draft differs from what is saved. */
export function useUnsavedChangesToast(dirty: boolean) {
  usePersistentNotice(dirty, 'settings-unsaved', 'Unsaved Changes', 'Please save before leaving this page.');
}
