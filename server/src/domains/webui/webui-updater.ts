import fs from 'node:fs';
import path from 'node:path';
import type { ReleaseChannel } from '@shoko-ts/contract';
import { textError } from '../../http/problem.js';
import { download } from './download.js';
import type { ReleasesService } from './releases.service.js';
import { readZip } from './zip.js';

const MAX_ZIP_BYTES = 100 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 400 * 1024 * 1024;

/**
 * WebUI/Update: downloads the console release for a channel and swaps it in. Everything that can fail (resolving the
 * release, downloading, unpacking) happens before the installed console is touched; the old copy is only removed
 * once the new one is in place, and put back if the swap fails.
 */
export class WebUIUpdater {
  constructor(
    private readonly webuiDir: string | null,
    private readonly releases: ReleasesService,
  ) {}

  /** Whether a real console is installed (the bootstrapper's placeholder page does not count): WebUI/Install refuses then. */
  hasConsole(): boolean {
    const index = this.webuiDir ? path.join(this.webuiDir, 'index.html') : null;
    return !!index && fs.existsSync(index) && !fs.readFileSync(index, 'utf8').includes('install-web-ui');
  }

  async update(channel: ReleaseChannel, allowIncompatible: boolean): Promise<void> {
    if (!this.webuiDir) throw textError(400, 'This server has no web UI folder to update.');
    const release = await this.releases.latestWebUI(channel, { force: true, allowIncompatible });
    if (!release.zipUrl) throw textError(400, 'No web UI release with a download was found for this channel.');
    const { body } = await download(release.zipUrl, { maxBytes: MAX_ZIP_BYTES, timeoutMs: 120_000 });
    let entries;
    try {
      entries = readZip(body, MAX_UNPACKED_BYTES);
    } catch (error) {
      throw textError(400, `The downloaded web UI could not be unpacked: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Releases may wrap everything in one top-level folder.
    const first = entries[0]?.path.split('/')[0];
    const wrapped =
      first && !entries.some((entry) => entry.path === 'index.html') && entries.every((entry) => entry.path.startsWith(`${first}/`));
    if (!entries.some((entry) => (wrapped ? entry.path.slice(first!.length + 1) : entry.path) === 'index.html')) {
      throw textError(400, 'The downloaded web UI has no index.html.');
    }

    const target = path.resolve(this.webuiDir);
    const staging = `${target}.update-${process.pid}`;
    const previous = `${target}.previous-${process.pid}`;
    await fs.promises.rm(staging, { recursive: true, force: true });
    try {
      for (const entry of entries) {
        const relative = wrapped ? entry.path.slice(first!.length + 1) : entry.path;
        const file = path.resolve(staging, relative);
        if (!file.startsWith(`${staging}${path.sep}`)) continue;
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(file, entry.data);
      }
      const version = release.version;
      if (!fs.existsSync(path.join(staging, 'version.json'))) {
        const info = {
          package: version.Version,
          tag: version.Tag,
          git: version.Commit,
          date: version.ReleaseDate,
          channel: version.ReleaseChannel,
          debug: false,
        };
        await fs.promises.writeFile(path.join(staging, 'version.json'), `${JSON.stringify(info, null, 2)}\n`);
      }
    } catch (error) {
      await fs.promises.rm(staging, { recursive: true, force: true });
      throw error;
    }

    const hadInstall = fs.existsSync(target);
    if (hadInstall) await fs.promises.rename(target, previous);
    try {
      await fs.promises.rename(staging, target);
    } catch (error) {
      if (hadInstall) await fs.promises.rename(previous, target);
      await fs.promises.rm(staging, { recursive: true, force: true });
      throw error;
    }
    if (hadInstall) {
      // User tweaks survive updates.
      const tweak = path.join(previous, 'tweak');
      if (fs.existsSync(tweak)) await fs.promises.rename(tweak, path.join(target, 'tweak'));
      await fs.promises.rm(previous, { recursive: true, force: true });
    }
  }
}
