import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { whenIdle } from '../whenIdle';
import { UtilitiesButtonFace, utilitiesButtonClass } from './utilitiesButton';

// The menu's code (Headless UI's Menu and its floating anchor, about 100 kB) is not needed to draw a page: a plain button
// stands in until the pointer or the focus comes to it, or the browser is idle after the page has drawn.
const UtilitiesDropdown = lazy(() => import('./UtilitiesDropdown'));

export function UtilitiesMenu({ onNavigate }: { onNavigate: () => void }) {
  const active = useLocation().pathname.startsWith('/utilities');
  const [wanted, setWanted] = useState(false);
  const [clicked, setClicked] = useState(false);
  const [focused, setFocused] = useState(false);
  // In a transition, so that the plain button stays (the same element, under the pointer) until the menu's code is here.
  const want = () => startTransition(() => setWanted(true));
  useEffect(() => whenIdle(() => startTransition(() => setWanted(true))), []);
  const plain = (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      className={utilitiesButtonClass(active)}
      onPointerEnter={want}
      onFocus={() => {
        setFocused(true);
        want();
      }}
      onBlur={() => setFocused(false)}
      onClick={() => {
        want();
        setClicked(true);
      }}
    >
      <UtilitiesButtonFace />
    </button>
  );
  return (
    <Suspense fallback={plain}>
      {wanted ? <UtilitiesDropdown active={active} openOnMount={clicked} focusOnMount={focused} onNavigate={onNavigate} /> : plain}
    </Suspense>
  );
}
