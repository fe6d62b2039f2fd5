import { ConfirmModal } from '@/components/ConfirmModal';

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
    <ConfirmModal title="Delete Files" confirmLabel={`Delete ${count}`} busy={busy} onCancel={onCancel} onConfirm={onConfirm}>
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
    </ConfirmModal>
  );
}
