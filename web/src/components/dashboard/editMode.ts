import { useSyncExternalStore } from 'react';

/**
 * Whether the dashboard layout is being edited. Started from the Dashboard Settings modal (top bar), ended by the
 * page's Save/Cancel/Reset or by leaving the page; one small store so the two need not share a parent.
 */
let editing = false;
const listeners = new Set<() => void>();

export function setDashboardEditing(value: boolean) {
  if (editing === value) return;
  editing = value;
  for (const listener of listeners) listener();
}

export function useDashboardEditing(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => editing,
  );
}
