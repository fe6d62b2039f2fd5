import { useState } from 'react';
import { useSupportedLanguages } from '@/api/settings';
import { Modal, ModalFooter } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { LanguageOrder } from './LanguageOrder';

interface LanguageOrderModalProps {
  open: boolean;
  title: string;
  value: string[];
  onClose: () => void;
  /** Receives the edited order; the page saves it with its other changes. */
  onSave: (value: string[]) => void;
}

/** Edits one language order (first match wins) in a modal; Save needs at least one language. */
export function LanguageOrderModal({ open, title, value, onClose, onSave }: LanguageOrderModalProps) {
  const languages = useSupportedLanguages();
  const [order, setOrder] = useState(value);
  // Reset only when the modal opens, not while the user edits.
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) setOrder(value);
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      footer={
        <ModalFooter
          onCancel={onClose}
          action="Save"
          disabled={!order.length}
          onAction={() => {
            onSave(order);
            onClose();
          }}
        />
      }
    >
      {languages.isPending ? (
        <Spinner />
      ) : languages.isError ? (
        <p role="alert" className="text-danger">
          Languages could not be loaded: {languages.error.message}
        </p>
      ) : (
        <>
          <LanguageOrder label="Languages, in order of preference" value={order} languages={languages.data} onChange={setOrder} />
          {!order.length && <p className="text-xs text-warning">Add at least one language.</p>}
        </>
      )}
    </Modal>
  );
}
