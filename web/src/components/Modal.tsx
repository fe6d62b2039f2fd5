import { lazy, Suspense, type ReactNode } from 'react';
import { whenIdle } from '@/app/whenIdle';
import { Button } from '@/components/Button';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

// The dialog's implementation (Headless UI's Dialog, about 100 kB with what it brings) is no part of any page's first
// draw: pages and the signed-in layout hold closed dialogs. It loads when a dialog first opens, or once the browser is
// idle after the page has drawn, whichever comes first.
const loadModalDialog = () => import('./ModalDialog');
const ModalDialog = lazy(loadModalDialog);
if (typeof window !== 'undefined') whenIdle(loadModalDialog);

export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={<div className="fixed inset-0 z-50 bg-overlay" aria-hidden="true" />}>
      <ModalDialog {...props} />
    </Suspense>
  );
}

/**
 * The usual dialog footer: a secondary button that closes the dialog (Cancel, or Close when there is nothing to
 * confirm), then the dialog's one action button when `action` names it.
 */
export function ModalFooter({
  onCancel,
  cancelLabel = 'Cancel',
  action,
  onAction,
  variant,
  disabled,
  busy,
  title,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  action?: ReactNode;
  onAction?: () => void;
  variant?: 'primary' | 'danger';
  disabled?: boolean;
  busy?: boolean;
  /** Tooltip of the action button, e.g. why it is disabled. */
  title?: string;
}) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      {action !== undefined && (
        <Button variant={variant} disabled={disabled} busy={busy} title={title} onClick={onAction}>
          {action}
        </Button>
      )}
    </>
  );
}
