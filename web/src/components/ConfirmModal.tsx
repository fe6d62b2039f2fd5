import type { ReactNode } from 'react';
import { Modal, ModalFooter } from '@/components/Modal';

/** A dialog that asks before something that cannot be undone: Cancel, and a red button that does it. */
export function ConfirmModal({
  open = true,
  title,
  size,
  confirmLabel = 'Delete',
  busy,
  onCancel,
  onConfirm,
  children,
}: {
  open?: boolean;
  title: string;
  size?: 'sm' | 'md' | 'lg';
  confirmLabel?: ReactNode;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={title}
      size={size}
      footer={<ModalFooter onCancel={onCancel} action={confirmLabel} variant="danger" busy={busy} onAction={onConfirm} />}
    >
      {children}
    </Modal>
  );
}
