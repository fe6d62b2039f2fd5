import { useEffect, useRef } from 'react';
import { Link, type LinkProps } from 'react-router';
import { prefetchLink } from '@/app/landing';

/** How long the pointer rests on a link before its page is asked for (a pointer sweeping over a grid asks for none). */
const HOVER_INTENT_MS = 80;

/** A link that asks for its page's data and code when the pointer rests on it or it takes the focus. */
export function PrefetchLink({ to, ...rest }: LinkProps & { to: string }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Link
      to={to}
      onMouseEnter={() => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => prefetchLink(to), HOVER_INTENT_MS);
      }}
      onMouseLeave={() => clearTimeout(timer.current)}
      onFocus={() => prefetchLink(to)}
      {...rest}
    />
  );
}
