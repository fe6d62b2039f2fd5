import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where Shoko keeps cached images, relative to its data folder: AniDB pictures under images/AniDB (posters),
 * images/AniDB_Char and images/AniDB_Creator, each in a folder named after the id's first two digits; TMDB images
 * under images/TMDB/<first two hex digits>/<MD5 of the remote file name without extension><extension>.
 */
const idFolder = (id: number) => String(id).slice(0, 2);

export const anidbPosterPath = (animeId: number, picture: string) => path.posix.join('images', 'AniDB', idFolder(animeId), picture);
export const anidbCharacterImagePath = (characterId: number, picture: string) =>
  path.posix.join('images', 'AniDB_Char', idFolder(characterId), picture);
export const anidbCreatorImagePath = (creatorId: number, picture: string) =>
  path.posix.join('images', 'AniDB_Creator', idFolder(creatorId), picture);

export function tmdbImagePath(remoteFileName: string): string {
  const extension = path.posix.extname(remoteFileName);
  const hashed = createHash('md5').update(path.posix.basename(remoteFileName, extension), 'utf8').digest('hex');
  return path.posix.join('images', 'TMDB', hashed.slice(0, 2), hashed + extension);
}

const segment = (marker: number, body: number[]): number[] => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];

/**
 * A valid 8×8 grey baseline JPEG whose shade comes from `seed`. One block of one colour needs only a DC value, so the
 * Huffman tables hold a single one-bit code each: the DC size category and the end-of-block.
 */
export function tinyJpeg(seed: string): Buffer {
  const shade = 40 + (createHash('sha1').update(seed).digest()[0] % 176);
  const dc = 8 * (shade - 128); // the DCT of a flat block, quantised by 1
  const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
  const amplitude = dc >= 0 ? dc : dc + (1 << category) - 1;
  let bits = '0' + (category ? amplitude.toString(2).padStart(category, '0') : '') + '0';
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, '1');
  const scan: number[] = [];
  for (let index = 0; index < bits.length; index += 8) {
    const byte = parseInt(bits.slice(index, index + 8), 2);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }
  const oneCodeTable = (tableClass: number, symbol: number) => [tableClass, 1, ...new Array<number>(15).fill(0), symbol];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]),
    ...segment(0xc4, oneCodeTable(0x00, category)),
    ...segment(0xc4, oneCodeTable(0x10, 0x00)),
    ...segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
    ...scan,
    0xff,
    0xd9,
  ]);
}
