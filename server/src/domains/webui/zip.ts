import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Forward-slash path inside the archive; directories are left out. */
  path: string;
  data: Buffer;
}

export class ZipError extends Error {}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/**
 * Reads a (non-ZIP64) zip archive held in memory: stored and deflated entries. Entry paths that are absolute or climb
 * out with `..` are refused, and the total unpacked size is capped so a crafted archive cannot fill the disk.
 */
export function readZip(archive: Buffer, maxTotalBytes: number): ZipEntry[] {
  let end = -1;
  for (let offset = archive.length - 22; offset >= Math.max(0, archive.length - 22 - 0xffff); offset -= 1) {
    if (archive.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new ZipError('The archive is not a zip file.');
  const count = archive.readUInt16LE(end + 10);
  let cursor = archive.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let i = 0; i < count; i += 1) {
    if (cursor + 46 > archive.length || archive.readUInt32LE(cursor) !== CENTRAL_FILE_HEADER)
      throw new ZipError('The zip directory is damaged.');
    const method = archive.readUInt16LE(cursor + 10);
    const compressedSize = archive.readUInt32LE(cursor + 20);
    const size = archive.readUInt32LE(cursor + 24);
    const nameLength = archive.readUInt16LE(cursor + 28);
    const extraLength = archive.readUInt16LE(cursor + 30);
    const commentLength = archive.readUInt16LE(cursor + 32);
    const localOffset = archive.readUInt32LE(cursor + 42);
    const name = archive
      .subarray(cursor + 46, cursor + 46 + nameLength)
      .toString('utf8')
      .replaceAll('\\', '/');
    cursor += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').some((part) => part === '..' || part === ''))
      throw new ZipError(`Unsafe path in the archive: ${name}`);
    total += size;
    if (total > maxTotalBytes) throw new ZipError('The archive unpacks to more than allowed.');
    if (localOffset + 30 > archive.length || archive.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER)
      throw new ZipError('The zip entry is damaged.');
    const dataStart = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size) });
    else throw new ZipError(`Unsupported compression method ${method} for ${name}.`);
    if (data.length !== size) throw new ZipError(`The zip entry ${name} is damaged.`);
    entries.push({ path: name, data });
  }
  return entries;
}
