import path from 'node:path';

/**
 * Folders of the operating system that must never become an import folder (the server would hash, rename and delete
 * inside them) and that the folder browser does not list: the kernel's views, devices, programs and their state,
 * the administrator's home. The root itself cannot be an import folder but may be browsed, so that an admin can walk
 * from it to their media. The Shoko import refuses its import folders by the same list (shoko-import/map-files.ts).
 */
const POSIX_SYSTEM_FOLDERS = [
  '/proc',
  '/sys',
  '/dev',
  '/run',
  '/etc',
  '/boot',
  '/root',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/usr',
  '/var/lib',
];
const WINDOWS_SYSTEM_FOLDERS = [
  'windows',
  'program files',
  'program files (x86)',
  'programdata',
  '$recycle.bin',
  'system volume information',
];

export type SystemLocation = { refused: false } | { refused: true; reason: string };

const isInside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

function windowsParts(location: string): { drive: string; rest: string[] } | undefined {
  const match = /^([a-zA-Z]):[\\/]*(.*)$/.exec(location);
  if (!match) return undefined;
  return { drive: match[1]!.toUpperCase(), rest: match[2]!.split(/[\\/]+/).filter(Boolean) };
}

/**
 * Why `location` is a system folder (or inside one), or the server's own data folder, inside it or holding it, if it
 * is. Only what is inside the data folder is refused, not what sits beside it: a library and the data folder may share
 * a parent.
 */
export function systemLocation(location: string, dataDirectory: string, forImport: boolean): SystemLocation {
  const windows = windowsParts(location);
  if (windows) {
    if (windows.rest.length === 0) {
      return forImport ? { refused: true, reason: `${windows.drive}:\\ is a drive root, not a media folder.` } : { refused: false };
    }
    const top = windows.rest[0]!.toLowerCase();
    if (WINDOWS_SYSTEM_FOLDERS.includes(top)) return { refused: true, reason: `${location} is a system folder of Windows.` };
    return { refused: false };
  }

  const resolved = path.posix.resolve(location);
  if (resolved === '/')
    return forImport ? { refused: true, reason: 'The root folder (/) cannot be an import folder.' } : { refused: false };
  const system = POSIX_SYSTEM_FOLDERS.find((folder) => isInside(resolved, folder));
  if (system) return { refused: true, reason: `${resolved} is inside the system folder ${system}.` };
  if (!forImport) return { refused: false };
  const data = path.resolve(dataDirectory);
  if (isInside(resolved, data)) return { refused: true, reason: `${resolved} is inside the server's own data folder (${data}).` };
  if (isInside(data, resolved)) return { refused: true, reason: `${resolved} holds the server's own data folder (${data}).` };
  return { refused: false };
}
