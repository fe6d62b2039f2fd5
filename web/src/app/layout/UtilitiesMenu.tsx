import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import { UtilitiesButtonFace, utilitiesButtonClass } from './utilitiesButton';

// The menu's code (about 50 kB with its floating anchor) is not needed to draw a page: it loads beside the page.
const UtilitiesDropdown = lazy(() => import('./UtilitiesDropdown'));

export function UtilitiesMenu({ onNavigate }: { onNavigate: () => void }) {
  const active = useLocation().pathname.startsWith('/utilities');
  const [clicked, setClicked] = useState(false);
  return (
    <Suspense
      fallback={
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded={false}
          className={utilitiesButtonClass(active)}
          onClick={() => setClicked(true)}
        >
          <UtilitiesButtonFace />
        </button>
      }
    >
      <UtilitiesDropdown active={active} openOnMount={clicked} onNavigate={onNavigate} />
    </Suspense>
  );
}
