import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button } from '@/components/Button';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl' };

export function Modal({ open, onClose, title, children, footer, size = 'md' }: ModalProps) {
  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-overlay" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className={`flex w-full ${widths[size]} flex-col gap-5 rounded-xl border border-border bg-panel p-6 shadow-2xl`}>
          <DialogTitle className="text-lg font-semibold">{title}</DialogTitle>
          <div className="flex flex-col gap-4 text-sm">{children}</div>
          {footer && <div className="flex flex-wrap justify-end gap-3">{footer}</div>}
        </DialogPanel>
      </div>
    </Dialog>
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
