import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Whether a change of the search box put more than one character in at once: a paste, a drop, an autofill or a
 * suggestion picked, whose text is whole, as opposed to a key typed (or one deleted).
 */
export function putInAtOnce(before: string, after: string): boolean {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end++;
  return after.length - start - end > 1;
}

/**
 * File Search's box: the text shown and the search asked for. Typing settles `delay` ms after the last key (SPEC §9),
 * so a word typed letter by letter asks once; a text put in at once, or Enter, asks at once. `ask` runs when a search
 * settles, before the page draws again, so its request leaves at that moment.
 */
export function useFileSearchText(delay: number, ask: (search: string) => void) {
  const [text, setText] = useState('');
  const [settled, setSettled] = useState('');
  const askRef = useRef(ask);
  const textRef = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    askRef.current = ask;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  const settle = useCallback((value: string) => {
    clearTimeout(timer.current);
    const search = value.trim();
    askRef.current(search);
    setSettled(search);
  }, []);
  const change = useCallback(
    (next: string) => {
      const before = textRef.current;
      textRef.current = next;
      setText(next);
      clearTimeout(timer.current);
      if (putInAtOnce(before, next)) settle(next);
      else timer.current = setTimeout(() => settle(next), delay);
    },
    [delay, settle],
  );
  const submit = useCallback(() => settle(textRef.current), [settle]);
  return { text, settled, change, submit };
}
