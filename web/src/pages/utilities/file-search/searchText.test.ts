import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isWholeTerm, SearchTerm, type TextInput } from './searchText';

const key = (data: string): TextInput => ({ inputType: 'insertText', data, isComposing: false });
const backspace: TextInput = { inputType: 'deleteContentBackward', data: null, isComposing: false };

describe('isWholeTerm', () => {
  it('is false for a key typed or deleted, and for text an input method is still composing', () => {
    expect(isWholeTerm(key('k'))).toBe(false);
    expect(isWholeTerm(backspace)).toBe(false);
    expect(isWholeTerm({ inputType: 'deleteByCut', data: null, isComposing: false })).toBe(false);
    expect(isWholeTerm({ inputType: 'insertCompositionText', data: 'かぜ', isComposing: true })).toBe(false);
  });

  it('is true for several characters in one event, a paste, a drop, an autofill and a plain input Event', () => {
    expect(isWholeTerm(key('kaze'))).toBe(true);
    expect(isWholeTerm({ inputType: 'insertFromPaste', data: null, isComposing: false })).toBe(true);
    expect(isWholeTerm({ inputType: 'insertFromPaste', data: 'k', isComposing: false })).toBe(true);
    expect(isWholeTerm({ inputType: 'insertFromDrop', data: null, isComposing: false })).toBe(true);
    expect(isWholeTerm({ inputType: 'insertReplacementText', data: null, isComposing: false })).toBe(true);
    expect(isWholeTerm({})).toBe(true);
  });
});

describe('SearchTerm', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const term = () => {
    const asked: Array<[string, number]> = [];
    const start = Date.now();
    return { asked, term: new SearchTerm(200, (search) => asked.push([search, Date.now() - start])) };
  };

  it('asks once for a word typed key by key, 200 ms after the last key', () => {
    const { asked, term: box } = term();
    let text = '';
    for (const letter of 'kaze') {
      text += letter;
      box.change(text, key(letter));
      vi.advanceTimersByTime(150);
    }
    expect(asked).toEqual([]);
    box.change('kaz', backspace);
    vi.advanceTimersByTime(199);
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual([['kaz', 800]]);
  });

  it('asks at once for a term filled, pasted or dropped, trimmed, and drops the keys pending before it', () => {
    const { asked, term: box } = term();
    box.change('x', key('x'));
    box.change(' kaze no tani ', key(' kaze no tani '));
    expect(asked).toEqual([['kaze no tani', 0]]);
    box.change('1', { inputType: 'insertFromPaste', data: '1', isComposing: false });
    box.change('1 ep', { inputType: 'insertFromDrop', data: null, isComposing: false });
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual([
      ['kaze no tani', 0],
      ['1', 0],
      ['1 ep', 0],
    ]);
  });

  it('waits while an input method composes and asks at once when it commits', () => {
    const { asked, term: box } = term();
    box.change('か', { inputType: 'insertCompositionText', data: 'か', isComposing: true });
    vi.advanceTimersByTime(100);
    box.change('かぜ', { inputType: 'insertCompositionText', data: 'かぜ', isComposing: true });
    vi.advanceTimersByTime(100);
    box.commit('風');
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual([['風', 200]]);
  });

  it('asks at once on Enter with what is typed so far, and not again when the keys would have settled', () => {
    const { asked, term: box } = term();
    box.change('k', key('k'));
    box.change('ka', key('a'));
    vi.advanceTimersByTime(50);
    box.commit();
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual([['ka', 50]]);
  });

  it('asks nothing once cancelled', () => {
    const { asked, term: box } = term();
    box.change('k', key('k'));
    box.cancel();
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual([]);
  });
});
