const ALLOWED_MIME = ['image/jpeg', 'image/png', 'image/bmp', 'image/gif', 'image/tiff', 'image/webp'] as const;
const MAX_SIDE = 512;
const MAX_BYTES = 8 * 1024 * 1024;

export type AvatarCheck = { ok: true; dataUrl: string } | { ok: false; message: string };

/** Validates a `data:<mime>;base64,<data>` avatar: allowed type, real format matching the type, at most 512×512. */
export function checkAvatar(value: string): AvatarCheck {
  const match = /^data:([a-z/+.-]+);base64,([A-Za-z0-9+/=\s]*)$/i.exec(value.trim());
  if (!match) return { ok: false, message: "Invalid data URL format for field 'Avatar'." };
  const mime = match[1]!.toLowerCase();
  if (!(ALLOWED_MIME as readonly string[]).includes(mime)) {
    return { ok: false, message: `Unsupported image type '${mime}' for field 'Avatar'.` };
  }
  const base64 = match[2]!.replace(/\s+/g, '');
  if (base64.length % 4 !== 0) return { ok: false, message: "Invalid base64 data for field 'Avatar'." };
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return { ok: false, message: "Invalid base64 data for field 'Avatar'." };
  if (bytes.length > MAX_BYTES) return { ok: false, message: 'The avatar image may be at most 8 MiB.' };
  const image = readImageHeader(bytes);
  if (!image || image.mime !== mime) {
    return { ok: false, message: 'The avatar data does not match its declared image type.' };
  }
  if (image.width > MAX_SIDE || image.height > MAX_SIDE) {
    return { ok: false, message: `The avatar image may be at most ${MAX_SIDE}×${MAX_SIDE} pixels.` };
  }
  return { ok: true, dataUrl: `data:${mime};base64,${base64}` };
}

interface ImageHeader {
  mime: string;
  width: number;
  height: number;
}

/** Reads format and dimensions from the first bytes of an image. */
export function readImageHeader(b: Buffer): ImageHeader | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47) {
    return { mime: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && b.toString('ascii', 0, 3) === 'GIF') {
    return { mime: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 26 && b.toString('ascii', 0, 2) === 'BM') {
    return { mime: 'image/bmp', width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
  }
  if (b.length >= 30 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP') {
    return readWebp(b);
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return readJpeg(b);
  if (b.length >= 8 && (b.toString('ascii', 0, 4) === 'II*\0' || b.toString('ascii', 0, 4) === 'MM\0*')) {
    return readTiff(b);
  }
  return null;
}

function readWebp(b: Buffer): ImageHeader | null {
  const chunk = b.toString('ascii', 12, 16);
  if (chunk === 'VP8X') {
    return { mime: 'image/webp', width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  }
  if (chunk === 'VP8 ') {
    return { mime: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { mime: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

function readJpeg(b: Buffer): ImageHeader | null {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1]!;
    const length = b.readUInt16BE(offset + 2);
    // Start-of-frame markers carry the dimensions (C4, C8 and CC are not frames).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mime: 'image/jpeg', height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

function readTiff(b: Buffer): ImageHeader | null {
  const little = b[0] === 0x49;
  const u16 = (o: number) => (little ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (little ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > b.length) return null;
  let width = 0;
  let height = 0;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > b.length) break;
    const tag = u16(entry);
    const type = u16(entry + 2);
    const value = type === 3 ? u16(entry + 8) : u32(entry + 8);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width && height ? { mime: 'image/tiff', width, height } : null;
}
