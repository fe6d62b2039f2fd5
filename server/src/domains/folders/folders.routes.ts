import fs from 'node:fs/promises';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { Drive, Folder } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound } from '../../http/problem.js';

/** Pseudo and memory filesystems that hold no media (contract files.md D1). */
const HIDDEN_FS_TYPES = new Set([
  'msdos',
  'ramfs',
  'configfs',
  'fusectl',
  'tracefs',
  'hugetlbfs',
  'mqueue',
  'debugfs',
  'binfmt_misc',
  'devpts',
  'pstore',
  'bpf',
  'cgroup',
  'cgroup2',
  'securityfs',
  'proc',
  'tmpfs',
  'sysfs',
  'devtmpfs',
  'autofs',
  'overlay',
  'nsfs',
  'squashfs',
  'efivarfs',
]);
const NETWORK_FS_TYPES = new Set(['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', 'sshfs', 'fuse.sshfs', '9p']);

async function describeFolder(folderPath: string): Promise<Folder> {
  try {
    const entries = await fs.readdir(folderPath, { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).length;
    return { Path: folderPath, IsAccessible: true, Sizes: { Folders: folders, Files: entries.length - folders } };
  } catch {
    return { Path: folderPath, IsAccessible: false, Sizes: null };
  }
}

/** Mount points from /proc/mounts (Linux); elsewhere the filesystem root. */
async function mountPoints(): Promise<Array<{ path: string; type: Drive['Type'] }>> {
  const text = await fs.readFile('/proc/mounts', 'utf8').catch(() => null);
  if (!text) return [{ path: path.parse(process.cwd()).root, type: 'Fixed' }];
  const seen = new Set<string>();
  const result: Array<{ path: string; type: Drive['Type'] }> = [];
  for (const line of text.split('\n')) {
    const [, mount, fsType] = line.split(' ');
    if (!mount || !fsType || HIDDEN_FS_TYPES.has(fsType)) continue;
    const decoded = mount.replace(/\\040/g, ' ');
    if (decoded.startsWith('/proc') || decoded.startsWith('/sys') || decoded.startsWith('/dev') || seen.has(decoded)) continue;
    seen.add(decoded);
    result.push({ path: decoded, type: NETWORK_FS_TYPES.has(fsType) ? 'Network' : 'Fixed' });
  }
  if (!seen.has('/')) result.push({ path: '/', type: 'Fixed' });
  return result;
}

/**
 * The server filesystem browser used to pick import folder paths. It lists folder names only, never file contents,
 * and is admin-only: in Shoko any user may browse the whole server.
 */
export function registerFolderRoutes(app: App) {
  const tags = ['Folder'];
  const drives = async () => {
    const points = await mountPoints();
    const described = await Promise.all(points.map(async ({ path: p, type }) => ({ ...(await describeFolder(p)), Type: type })));
    return described.sort((a, b) => a.Path.localeCompare(b.Path));
  };
  for (const route of ['/api/v3/Folder/Drives', '/api/v3/Folder/MountPoints']) {
    app.get(route, { config: { auth: 'admin' }, schema: { tags, response: { 200: Type.Array(Drive) } } }, drives);
  }

  app.get(
    '/api/v3/Folder',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        querystring: Type.Object({ path: Type.Optional(Type.String()), Path: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(Folder) },
      },
    },
    async (request) => {
      const requested = request.query.path ?? request.query.Path;
      if (!requested) throw notFound('Directory not found');
      const folderPath = path.resolve(requested);
      const entries = await fs.readdir(folderPath, { withFileTypes: true }).catch(() => null);
      if (!entries) throw notFound('Directory not found');
      const children = entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(folderPath, entry.name));
      return (await Promise.all(children.map(describeFolder))).sort((a, b) => a.Path.localeCompare(b.Path));
    },
  );
}
