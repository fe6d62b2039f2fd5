import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';

/** Asks before anything leaves the disk, listing every path that will be deleted. */
export function ConfirmDeleteModal({
  paths,
  busy,
  onCancel,
  onConfirm,
  note,
}: {
  paths: string[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  note?: string;
}) {
  const count = `${paths.length} ${paths.length === 1 ? 'file' : 'files'}`;
  return (
    <Modal
      open
      onClose={onCancel}
      title="Delete Files"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            Delete {count}
          </Button>
        </>
      }
    >
      <p>
        {paths.length === 1 ? 'This file' : `These ${count}`} will be <strong>deleted from disk</strong>. This cannot be undone.
      </p>
      {note && <p className="text-muted">{note}</p>}
      <ul
        className="max-h-64 overflow-auto rounded-md border border-border bg-background-alt p-2 font-mono text-xs"
        aria-label="Files to delete"
      >
        {paths.map((path) => (
          <li key={path} className="break-all py-0.5">
            {path}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
