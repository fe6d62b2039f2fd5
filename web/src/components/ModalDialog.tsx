import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ModalProps } from './Modal';

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl' };

/** The open dialog (Headless UI's, with its focus trap, Escape and outside-click close), loaded the first time it is needed. */
export default function ModalDialog({ onClose, title, children, footer, size = 'md' }: ModalProps) {
  return (
    <Dialog open onClose={onClose} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-overlay" aria-hidden="true" />
      {/* Centred in a box at least as tall as the screen that scrolls: a dialog taller than the screen starts at its top. */}
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-center justify-center p-4">
          <DialogPanel className={`flex w-full ${widths[size]} flex-col gap-5 rounded-xl border border-border bg-panel p-6 shadow-2xl`}>
            <DialogTitle className="text-lg font-semibold">{title}</DialogTitle>
            <div className="flex flex-col gap-4 text-sm">{children}</div>
            {footer && <div className="flex flex-wrap justify-end gap-3">{footer}</div>}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
