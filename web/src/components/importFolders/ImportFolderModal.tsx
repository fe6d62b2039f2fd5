import { mdiAlertCircleOutline, mdiFolderSearchOutline } from '@mdi/js';
import { useId, useState } from 'react';
import type { DropFolderType, ImportFolder } from '@shoko-ts/contract';
import { formErrors } from '@/api/client';
import { useAddImportFolder, useDeleteImportFolder, useUpdateImportFolder } from '@/api/importFolders';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { ConfirmModal } from '@/components/ConfirmModal';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { Toggle } from '@/components/Toggle';
import { folderName } from '@/lib/format';
import { FolderBrowserModal } from './FolderBrowserModal';

const DROP_TYPE_HINTS: Record<DropFolderType, string> = {
  None: 'Files stay where they are: never renamed or moved automatically.',
  Source: 'A drop folder: imported files are moved out of it into a destination folder.',
  Destination: 'Files from source folders are moved into this folder.',
  Both: 'Files can be moved out of this folder and into it.',
};

interface ImportFolderModalProps {
  /** The folder to edit; absent to add a new one. */
  folder?: ImportFolder;
  onClose: () => void;
}

/** Add or edit an import folder. Rendered only while open, so every opening starts from the folder's saved values. */
export function ImportFolderModal({ folder, onClose }: ImportFolderModalProps) {
  const formId = useId();
  const add = useAddImportFolder();
  const update = useUpdateImportFolder();
  const save = folder ? update : add;
  const [name, setName] = useState(folder?.Name ?? '');
  const [path, setPath] = useState(folder?.Path ?? '');
  const [dropType, setDropType] = useState<DropFolderType>(folder?.DropFolderType ?? 'None');
  const [watch, setWatch] = useState(folder?.WatchForNewFiles ?? true);
  const [browsing, setBrowsing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const { fields, general } = formErrors(save.error);
  const { name: nameErrors, path: pathErrors, ...otherFields } = fields;
  const otherErrors = [...Object.values(otherFields).flat(), ...(general ? [general] : [])];

  const edit =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      if (save.error) save.reset();
    };

  const submit = () => {
    const values = { Name: name.trim() || folderName(path.trim()), Path: path.trim(), DropFolderType: dropType, WatchForNewFiles: watch };
    if (folder) update.mutate({ ...folder, ...values }, { onSuccess: onClose });
    else add.mutate(values, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={folder ? 'Edit Import Folder' : 'Add Import Folder'}
      footer={
        <>
          {folder && (
            <Button variant="danger" className="sm:mr-auto" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!path.trim()} busy={save.isPending}>
            {folder ? 'Save' : 'Add'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          // React bubbles events through portals: a page form around the modal (the first-run step) must not submit.
          event.stopPropagation();
          if (path.trim()) submit();
        }}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => edit(setName)(e.target.value)}
          placeholder={folderName(path) || 'Anime'}
          errors={nameErrors}
        />
        <TextField
          label="Location"
          value={path}
          onChange={(e) => edit(setPath)(e.target.value)}
          placeholder="/mnt/anime"
          hint="A folder on the server machine."
          errors={pathErrors}
          spellCheck={false}
          addon={
            <Button variant="secondary" onClick={() => setBrowsing(true)}>
              <Icon path={mdiFolderSearchOutline} size={0.8} />
              Browse
            </Button>
          }
        />
        <SelectField
          label="Drop Type"
          hint={DROP_TYPE_HINTS[dropType]}
          value={dropType}
          onChange={(e) => edit(setDropType)(e.target.value as DropFolderType)}
        >
          {(Object.keys(DROP_TYPE_HINTS) as DropFolderType[]).map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </SelectField>
        <Toggle
          label="Watch For New Files"
          description="Import new files as soon as they appear."
          checked={watch}
          onChange={edit(setWatch)}
        />
        {otherErrors.length > 0 && (
          <div
            role="alert"
            className="flex items-start gap-2 rounded-md border border-danger/40 bg-danger/10 px-3 py-2 font-semibold text-danger"
          >
            <Icon path={mdiAlertCircleOutline} size={0.8} className="mt-px shrink-0" />
            <div className="flex flex-col gap-1">
              {otherErrors.map((message) => (
                <span key={message}>{message}</span>
              ))}
            </div>
          </div>
        )}
      </form>
      {browsing && (
        <FolderBrowserModal
          open
          initialPath={path.trim()}
          onClose={() => setBrowsing(false)}
          onSelect={(selected) => {
            edit(setPath)(selected);
            if (!name.trim()) setName(folderName(selected));
            setBrowsing(false);
          }}
        />
      )}
      {folder && deleting && <DeleteImportFolderModal folder={folder} onClose={() => setDeleting(false)} onDeleted={onClose} />}
    </Modal>
  );
}

function DeleteImportFolderModal({ folder, onClose, onDeleted }: { folder: ImportFolder; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteImportFolder();
  const [keepRecords, setKeepRecords] = useState(false);
  return (
    <ConfirmModal
      title="Delete Import Folder"
      size="sm"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ id: folder.ID, removeRecords: !keepRecords }, { onSuccess: onDeleted })}
    >
      <p>
        Remove <strong className="break-all">{folder.Name}</strong> from Shoko? The files on disk are not touched.
      </p>
      <Checkbox label="Keep file records (to re-add the folder at a new location)" checked={keepRecords} onChange={setKeepRecords} />
    </ConfirmModal>
  );
}
