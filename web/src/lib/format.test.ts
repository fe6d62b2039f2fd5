import { describe, expect, it } from 'vitest';
import { folderName, formatFileSize, splitRelativePath } from './format';

describe('formatFileSize', () => {
  it('shows bytes whole and larger sizes with one decimal in 1024 steps', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(734_003_200)).toBe('700.0 MB');
    expect(formatFileSize(5 * 1024 ** 4)).toBe('5.0 TB');
  });

  it('moves to the next unit instead of showing 1024.0', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1.0 MB');
  });

  it('shows a dash for nonsense', () => {
    expect(formatFileSize(-1)).toBe('—');
    expect(formatFileSize(Number.NaN)).toBe('—');
  });
});

describe('splitRelativePath', () => {
  it('splits at the last separator of either kind', () => {
    expect(splitRelativePath('Show/Season 1/Ep 01.mkv')).toEqual({ name: 'Ep 01.mkv', directory: 'Show/Season 1' });
    expect(splitRelativePath('Show\\Ep 02.mkv')).toEqual({ name: 'Ep 02.mkv', directory: 'Show' });
    expect(splitRelativePath('Movie.mkv')).toEqual({ name: 'Movie.mkv', directory: '' });
  });
});

describe('folderName', () => {
  it('takes the last folder of POSIX and Windows paths, trailing separator or not', () => {
    expect(folderName('/mnt/anime/')).toBe('anime');
    expect(folderName('/mnt/anime')).toBe('anime');
    expect(folderName('D:\\Media\\Anime\\')).toBe('Anime');
    expect(folderName('/')).toBe('/');
    expect(folderName('')).toBe('');
  });
});
