import { describe, expect, it } from 'vitest';
import type { Episode, File } from '@shoko-ts/contract';
import { nextEpisodeAfter, preferredFile } from './nextEpisode';

const file = (ID: number, { variation = false, onDisk = true } = {}) =>
  ({ ID, IsVariation: variation, Locations: [{ IsAccessible: onDisk }] }) as unknown as File;
const episode = (ID: number, files: File[]) => ({ IDs: { ID }, Files: files }) as unknown as Episode;

describe('the next episode', () => {
  it('is the following episode with a file, skipping those without', () => {
    const list = [episode(1, [file(11)]), episode(2, []), episode(3, [file(31)])];
    expect(nextEpisodeAfter(list, 1)).toEqual({ episode: list[2], fileId: 31 });
    expect(nextEpisodeAfter(list, 3)).toBeNull();
    expect(nextEpisodeAfter(list, 99)).toBeNull();
    expect(nextEpisodeAfter(undefined, 1)).toBeNull();
  });

  it('plays the main release on disk rather than a variation or a missing file', () => {
    expect(preferredFile([file(1, { variation: true }), file(2, { onDisk: false }), file(3)])?.ID).toBe(3);
    expect(preferredFile([])).toBeNull();
  });
});
