import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const IMAGE_SOURCES = ['AniDB', 'TMDB', 'User', 'Shoko'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];
export const IMAGE_TYPES = ['Poster', 'Banner', 'Thumbnail', 'Backdrop', 'Character', 'Staff', 'Logo', 'Avatar'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
const TYPE_ALIASES: Record<string, ImageType> = { thumb: 'Thumbnail', fanart: 'Backdrop' };

export function parseImageSource(text: string): ImageSource | null {
  return IMAGE_SOURCES.find((s) => s.toLowerCase() === text.toLowerCase()) ?? null;
}

export function parseImageType(text: string): ImageType | null {
  const lower = text.toLowerCase();
  return TYPE_ALIASES[lower] ?? IMAGE_TYPES.find((t) => t.toLowerCase() === lower) ?? null;
}

const EXTENSIONS: Array<{ ext: string; contentType: string; magic: (b: Buffer) => boolean }> = [
  { ext: 'jpg', contentType: 'image/jpeg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: 'png',
    contentType: 'image/png',
    magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: 'gif', contentType: 'image/gif', magic: (b) => b.subarray(0, 3).toString('latin1') === 'GIF' },
  {
    ext: 'webp',
    contentType: 'image/webp',
    magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The image format of some bytes from their first bytes; null when they are not an image we serve. */
export function sniffImage(bytes: Buffer): { ext: string; contentType: string } | null {
  const match = EXTENSIONS.find((e) => e.magic(bytes));
  return match ? { ext: match.ext, contentType: match.contentType } : null;
}

/**
 * Downloaded images on disk: `<home>/images/<Source>/<Type>/<ID>.<ext>`. Names are built only from the parsed
 * enums and an integer id, so no request can point outside the store; writes go through a temporary file.
 */
export class ImageStore {
  readonly root: string;

  constructor(home: string) {
    this.root = path.join(home, 'images');
  }

  private dir(source: ImageSource, type: ImageType): string {
    return path.join(this.root, source, type);
  }

  /** The stored file of an image, or null. */
  find(source: ImageSource, type: ImageType, id: number): { file: string; contentType: string } | null {
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    for (const { ext, contentType } of EXTENSIONS) {
      const file = path.join(this.dir(source, type), `${id}.${ext}`);
      if (fs.existsSync(file)) return { file, contentType };
    }
    return null;
  }

  has(source: ImageSource, type: ImageType, id: number): boolean {
    return this.find(source, type, id) !== null;
  }

  /** Ids of every stored image of a kind. */
  ids(source: ImageSource, type: ImageType): number[] {
    const names = fs.existsSync(this.dir(source, type)) ? fs.readdirSync(this.dir(source, type)) : [];
    return names
      .map((name) => /^(\d+)\.\w+$/.exec(name)?.[1])
      .filter((id): id is string => !!id)
      .map(Number);
  }

  /** Stores image bytes; anything that is not a recognisable image is refused. */
  async save(source: ImageSource, type: ImageType, id: number, bytes: Buffer): Promise<string> {
    const format = sniffImage(bytes);
    if (!format) throw new Error(`not an image (${bytes.length} bytes)`);
    const dir = this.dir(source, type);
    await fs.promises.mkdir(dir, { recursive: true });
    const target = path.join(dir, `${id}.${format.ext}`);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await fs.promises.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.promises.rename(temporary, target);
    } catch (error) {
      // A write cut short (a full disk) leaves no part file behind.
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    // A new format replaces an older file of the same image.
    for (const other of EXTENSIONS.filter((e) => e.ext !== format.ext))
      await fs.promises.rm(path.join(dir, `${id}.${other.ext}`), { force: true });
    return target;
  }
}
