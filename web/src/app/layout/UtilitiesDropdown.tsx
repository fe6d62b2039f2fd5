import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { UtilitiesButtonFace, utilitiesButtonClass, utilityLinks } from './utilitiesButton';

interface UtilitiesDropdownProps {
  active: boolean;
  /** Opens the menu as it mounts: the button was clicked while this code was still loading. */
  openOnMount: boolean;
  /** Takes the focus as it mounts: the plain button it replaces had it. */
  focusOnMount: boolean;
  onNavigate: () => void;
}

/** The Utilities menu itself (Headless UI's Menu and its floating anchor), loaded after the page it sits above
 * (UtilitiesMenu.tsx). */
export default function UtilitiesDropdown({ active, openOnMount, focusOnMount, onNavigate }: UtilitiesDropdownProps) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusOnMount) button.current?.focus();
    if (openOnMount) button.current?.click();
    // Only the focus and the click given to the plain button before the menu's code arrived count.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Menu as="div" className="relative">
      <MenuButton ref={button} className={utilitiesButtonClass(active)}>
        <UtilitiesButtonFace />
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-50 mt-1 flex w-60 flex-col rounded-lg border border-border bg-panel p-1 shadow-xl focus:outline-none"
      >
        {utilityLinks.map(([to, label]) => (
          <MenuItem key={to}>
            <Link
              to={to}
              onClick={onNavigate}
              className="rounded-md px-3 py-2 text-sm text-text data-[focus]:bg-panel-alt data-[focus]:text-primary"
            >
              {label}
            </Link>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
