import type { File } from '@shoko-ts/contract';
import { useDeleteFiles } from '@/api/files';
import { ConfirmModal } from '@/components/ConfirmModal';
import { splitRelativePath } from '@/lib/format';
import { primaryLocation } from './fileTable';

const LISTED = 5;

/** Confirms before files leave the disk; only then is the delete (with explicit removeFiles) sent. */
export function DeleteFilesModal({ files, onClose, onDeleted }: { files: File[]; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteFiles();
  const count = files.length;
  const noun = count === 1 ? 'file' : 'files';
  return (
    <ConfirmModal
      title={`Delete ${count} ${noun}?`}
      confirmLabel="Delete from Disk"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(
          files.map((file) => file.ID),
          { onSuccess: onDeleted },
        )
      }
    >
      <p>
        The selected {noun} will be <strong className="text-danger">permanently removed from disk</strong>, together with folders left
        empty, and forgotten by Shoko. This cannot be undone.
      </p>
      <ul className="flex flex-col gap-1 rounded-md border border-border bg-background-alt p-3 font-mono text-xs">
        {files.slice(0, LISTED).map((file) => (
          <li key={file.ID} className="truncate">
            {splitRelativePath(primaryLocation(file)?.RelativePath ?? '').name || `File ${file.ID}`}
          </li>
        ))}
        {count > LISTED && <li className="text-muted">…and {count - LISTED} more</li>}
      </ul>
    </ConfirmModal>
  );
}
