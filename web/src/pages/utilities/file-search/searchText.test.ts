import { describe, expect, it } from 'vitest';
import { putInAtOnce } from './searchText';

describe('putInAtOnce', () => {
  it('is false for a key typed or deleted anywhere in the text', () => {
    expect(putInAtOnce('', 'k')).toBe(false);
    expect(putInAtOnce('kaz', 'kaze')).toBe(false);
    expect(putInAtOnce('kze', 'kaze')).toBe(false);
    expect(putInAtOnce('kaze', 'kaz')).toBe(false);
    expect(putInAtOnce('kaze', '')).toBe(false);
    expect(putInAtOnce('aa', 'aaa')).toBe(false);
  });

  it('is true when more than one character arrives in one change', () => {
    expect(putInAtOnce('', '10026')).toBe(true);
    expect(putInAtOnce('kaze', 'kaze no tani')).toBe(true);
    expect(putInAtOnce('ep  01', 'ep xx 01')).toBe(true);
    expect(putInAtOnce('aa', 'aaaa')).toBe(true);
  });

  it('counts what replaced a selection, whatever the lengths', () => {
    expect(putInAtOnce('kaze no tani', 'sora')).toBe(true);
    expect(putInAtOnce('kaze', 'hosh')).toBe(true);
    expect(putInAtOnce('kaze', 'kate')).toBe(false);
  });
});
