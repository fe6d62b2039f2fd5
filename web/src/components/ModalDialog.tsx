import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ModalProps } from './Modal';

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl' };

/** The open dialog (Headless UI's, with its focus trap, Escape and outside-click close), loaded the first time it is needed. */
export default function ModalDialog({ onClose, title, children, footer, size = 'md' }: ModalProps) {
  return (
    <Dialog open onClose={onClose} className="fixed inset-0 z-50">
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
