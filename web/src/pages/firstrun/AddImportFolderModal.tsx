import { useState } from 'react';
import type { DropFolderType } from '@shoko-ts/contract';
import { useAddImportFolder } from '@/api/importFolders';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { Toggle } from '@/components/Toggle';

const dropTypes: [DropFolderType, string][] = [
  ['None', 'None'],
  ['Source', 'Source (files are moved out of it)'],
  ['Destination', 'Destination (files are moved into it)'],
  ['Both', 'Both'],
];

export function AddImportFolderModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const add = useAddImportFolder();
  const [name, setName] = useState('');
  const [path, setPath] = useState('');
  const [dropType, setDropType] = useState<DropFolderType>('None');
  const [watch, setWatch] = useState(true);

  const save = () =>
    add.mutate(
      { Name: name.trim() || path.trim(), Path: path.trim(), DropFolderType: dropType, WatchForNewFiles: watch },
      {
        onSuccess: () => {
          setName('');
          setPath('');
          onClose();
        },
      },
    );

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Add Import Folder"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!path.trim()} busy={add.isPending}>
            Save
          </Button>
        </>
      }
    >
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Anime" />
      <TextField label="Location" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/mnt/anime" hint="A folder path on the server machine." />
      <label className="flex flex-col gap-1.5 text-sm font-semibold">
        Drop Folder Type
        <select value={dropType} onChange={(e) => setDropType(e.target.value as DropFolderType)} className="rounded-md border border-border bg-background-alt px-3 py-2 font-normal">
          {dropTypes.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <Toggle label="Watch for new files" checked={watch} onChange={setWatch} />
    </Modal>
  );
}
