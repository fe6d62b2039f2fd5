import path from 'node:path';
import type { EventBus } from '../../events/bus.js';
import { fileEvent } from '../files/index.js';
import type { RelocatedFile } from './relocation.js';

/** FileRenamed when only the name changed, FileMoved for anything else (contract files.md, hub events). */
export function announceRelocation(bus: EventBus, file: RelocatedFile): void {
  const base = fileEvent(file.fileId, { id: file.locationId, import_folder_id: file.to.folderId, relative_path: file.to.relativePath });
  const sameDirectory =
    file.from.folderId === file.to.folderId &&
    path.posix.dirname(file.from.relativePath.replace(/\\/g, '/')) === path.posix.dirname(file.to.relativePath.replace(/\\/g, '/'));
  if (sameDirectory) {
    bus.emit('shoko', {
      event: 'FileRenamed',
      payload: { ...base, FileName: path.basename(file.to.relativePath), PreviousFileName: path.basename(file.from.relativePath) },
    });
  } else {
    bus.emit('shoko', {
      event: 'FileMoved',
      payload: { ...base, PreviousRelativePath: file.from.relativePath, PreviousImportFolderID: file.from.folderId },
    });
  }
}
