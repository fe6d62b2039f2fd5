import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { solidPng } from '../../../../fakes/src/tmdb/png.js';
import { ImageStore, parseImageSource, parseImageType, sniffImage } from './image-store.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

describe('image store', () => {
  let home: string;
  let store: ImageStore;

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-images-'));
    store = new ImageStore(home);
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('parses sources and types case-insensitively, with the Thumb and Fanart aliases, and nothing else', () => {
    expect(parseImageSource('anidb')).toBe('AniDB');
    expect(parseImageSource('TMDB')).toBe('TMDB');
    expect(parseImageSource('../AniDB')).toBeNull();
    expect(parseImageType('poster')).toBe('Poster');
    expect(parseImageType('Thumb')).toBe('Thumbnail');
    expect(parseImageType('fanart')).toBe('Backdrop');
    expect(parseImageType('Poster/..')).toBeNull();
  });

  it('recognises images by their first bytes', () => {
    expect(sniffImage(solidPng('x', 4, 4))).toEqual({ ext: 'png', contentType: 'image/png' });
    expect(sniffImage(JPEG)).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(sniffImage(Buffer.from('<html>404</html>'))).toBeNull();
  });

  it('stores under <home>/images/<Source>/<Type>/<ID>.<ext> without leaving temporary files, a new format replacing the old', async () => {
    const target = await store.save('AniDB', 'Poster', 42, JPEG);
    expect(target).toBe(path.join(home, 'images', 'AniDB', 'Poster', '42.jpg'));
    expect(store.find('AniDB', 'Poster', 42)).toEqual({ file: target, contentType: 'image/jpeg' });

    await store.save('AniDB', 'Poster', 42, solidPng('x', 4, 4));
    expect(fs.readdirSync(path.join(home, 'images', 'AniDB', 'Poster'))).toEqual(['42.png']);
    expect(store.find('AniDB', 'Poster', 42)?.contentType).toBe('image/png');
    expect(store.ids('AniDB', 'Poster')).toEqual([42]);
    expect(store.ids('AniDB', 'Character')).toEqual([]);
  });

  it('refuses bytes that are not an image and never writes them', async () => {
    await expect(store.save('AniDB', 'Staff', 7, Buffer.from('<html>banned</html>'))).rejects.toThrow(/not an image/);
    expect(store.has('AniDB', 'Staff', 7)).toBe(false);
    expect(fs.existsSync(path.join(home, 'images', 'AniDB', 'Staff'))).toBe(false);
  });

  it('only looks up positive integer ids', async () => {
    await store.save('AniDB', 'Poster', 1, JPEG);
    expect(store.find('AniDB', 'Poster', 0)).toBeNull();
    expect(store.find('AniDB', 'Poster', -1)).toBeNull();
    expect(store.find('AniDB', 'Poster', 1.5)).toBeNull();
    expect(store.find('AniDB', 'Poster', 1)).not.toBeNull();
  });
});
