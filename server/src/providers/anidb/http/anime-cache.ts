import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Raw anime XML on disk as `AnimeDoc_<aid>.xml`, so a re-import never asks AniDB twice. */
export class AnimeXmlCache {
  constructor(private readonly dir: string) {}

  pathOf(animeId: number): string {
    return path.join(this.dir, `AnimeDoc_${animeId}.xml`);
  }

  /** The cached XML and when it was saved (the file's mtime), or null when there is none. */
  async read(animeId: number): Promise<{ xml: string; savedAt: number } | null> {
    const file = this.pathOf(animeId);
    try {
      const [xml, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      return { xml, savedAt: info.mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Writes through a temporary file and a rename, so readers never see half a document. */
  async write(animeId: number, xml: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = this.pathOf(animeId);
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, xml, 'utf8');
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
