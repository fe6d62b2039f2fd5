import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readManifest, writeArchive } from './backup-archive.js';

describe('readManifest', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((f) => fs.rmSync(f, { recursive: true, force: true })));

  it('rejects for a backup that is gone (a pruned one) instead of hanging with an uncaught error', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-archive-'));
    folders.push(folder);
    await expect(readManifest(path.join(folder, 'pruned.tar.gz'))).rejects.toThrow(/ENOENT/);
  });

  it('reads the manifest of an archive and stops after it', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-archive-'));
    folders.push(folder);
    const data = path.join(folder, 'data.bin');
    fs.writeFileSync(data, Buffer.alloc(300_000, 7));
    const archive = path.join(folder, 'backup.tar.gz');
    await writeArchive(archive, [
      { name: 'backup.json', data: Buffer.from(JSON.stringify({ Kind: 'Manual' })) },
      { name: 'database.sqlite', file: data },
    ]);
    expect(await readManifest(archive)).toEqual({ Kind: 'Manual' });
  });
});
