import { mdiChevronDown, mdiChevronRight, mdiFolderOutline, mdiHarddisk, mdiServerNetwork } from '@mdi/js';
import { useState } from 'react';
import type { Drive, Folder } from '@shoko-ts/contract';
import { useDrives, useFolderChildren } from '@/api/folders';
import { Icon } from '@/components/Icon';
import { Modal, ModalFooter } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { folderName } from '@/lib/format';

interface FolderBrowserModalProps {
  open: boolean;
  /** The path the user already typed, preselected. */
  initialPath?: string;
  onClose: () => void;
  onSelect: (path: string) => void;
}

/** Picks a folder on the server: drives (mount points) at the root, expanded one level at a time. */
export function FolderBrowserModal({ open, initialPath = '', onClose, onSelect }: FolderBrowserModalProps) {
  const [selected, setSelected] = useState(initialPath);
  const drives = useDrives(open);
  const accessibleDrives = drives.data?.filter((drive) => drive.IsAccessible) ?? [];

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Select Folder"
      size="lg"
      footer={<ModalFooter onCancel={onClose} action="Select" onAction={() => onSelect(selected)} disabled={!selected} />}
    >
      <div className="h-80 overflow-auto rounded-lg border border-border bg-background-alt p-2" data-testid="folder-tree">
        {drives.error && <p className="p-2 text-danger">{drives.error.message}</p>}
        {drives.isSuccess && !accessibleDrives.length && <p className="p-2 text-muted">No readable drives found on the server.</p>}
        <ul role="tree" aria-label="Server folders">
          {drives.isPending && <LoadingRow depth={0} />}
          {accessibleDrives.map((drive) => (
            <FolderNode key={drive.Path} folder={drive} label={drive.Path} depth={0} selected={selected} onSelect={setSelected} />
          ))}
        </ul>
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-xs font-semibold uppercase tracking-wider text-muted">Selected folder</span>
        <span className="break-all font-mono text-sm" data-testid="selected-folder">
          {selected || '—'}
        </span>
      </div>
    </Modal>
  );
}

interface FolderNodeProps {
  folder: Folder | Drive;
  label: string;
  depth: number;
  selected: string;
  onSelect: (path: string) => void;
}

function FolderNode({ folder, label, depth, selected, onSelect }: FolderNodeProps) {
  const [expanded, setExpanded] = useState(false);
  const children = useFolderChildren(folder.Path, expanded);
  const canExpand = (folder.Sizes?.Folders ?? 0) > 0;
  const isSelected = samePath(selected, folder.Path);
  const icon = 'Type' in folder ? (folder.Type === 'Network' ? mdiServerNetwork : mdiHarddisk) : mdiFolderOutline;
  const toggle = () => canExpand && setExpanded((value) => !value);

  return (
    <li role="treeitem" aria-label={label} aria-expanded={canExpand ? expanded : undefined} aria-selected={isSelected}>
      <div className="flex items-center gap-1" style={{ paddingLeft: `${depth * 1.25}rem` }}>
        <button
          type="button"
          tabIndex={-1}
          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${label}`}
          disabled={!canExpand}
          onClick={toggle}
          className="flex size-6 shrink-0 items-center justify-center rounded text-muted hover:bg-panel-alt hover:text-text disabled:invisible"
        >
          <Icon path={expanded ? mdiChevronDown : mdiChevronRight} size={0.75} />
        </button>
        <button
          type="button"
          onClick={() => onSelect(folder.Path)}
          onDoubleClick={toggle}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight' && canExpand && !expanded) setExpanded(true);
            if (event.key === 'ArrowLeft' && expanded) setExpanded(false);
          }}
          className={`flex min-w-0 flex-1 items-center gap-2 rounded px-2 py-1 text-left text-sm ${isSelected ? 'bg-primary text-on-primary' : 'hover:bg-panel-alt'}`}
        >
          <Icon path={icon} size={0.75} className={isSelected ? undefined : 'text-primary'} />
          <span className="truncate">{label}</span>
        </button>
      </div>
      {expanded && (
        <ul role="group">
          {children.isPending && <LoadingRow depth={depth + 1} />}
          {children.error && (
            <li className="py-1 text-xs text-danger" style={{ paddingLeft: `${(depth + 1) * 1.25 + 1.75}rem` }}>
              {children.error.message}
            </li>
          )}
          {children.data
            ?.filter((child) => child.IsAccessible)
            .map((child) => (
              <FolderNode
                key={child.Path}
                folder={child}
                label={folderName(child.Path)}
                depth={depth + 1}
                selected={selected}
                onSelect={onSelect}
              />
            ))}
        </ul>
      )}
    </li>
  );
}

function LoadingRow({ depth }: { depth: number }) {
  return (
    <li className="flex items-center gap-2 py-1 text-xs text-muted" style={{ paddingLeft: `${depth * 1.25 + 1.75}rem` }}>
      <Spinner size={0.7} /> Loading…
    </li>
  );
}

/** Paths compare without a trailing separator: the server stores import folders as `/mnt/anime/`. */
function samePath(a: string, b: string): boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, '') : p);
  return !!a && trim(a) === trim(b);
}
