import { useEffect, useRef } from 'react';
import { prefetchLink } from '@/app/landing';

/** How long the pointer rests on a link before its page is asked for (a pointer sweeping over a grid asks for none). */
const HOVER_INTENT_MS = 80;

/** Handlers for a link that ask for its page's data and code when the pointer rests on it or it takes the focus. */
export function useHoverPrefetch(to: string) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    onMouseEnter: () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => prefetchLink(to), HOVER_INTENT_MS);
    },
    onMouseLeave: () => clearTimeout(timer.current),
    onFocus: () => prefetchLink(to),
  };
}
