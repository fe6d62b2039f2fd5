import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { UtilitiesButtonFace, utilitiesButtonClass, utilityLinks } from './utilitiesButton';

/**
 * The Utilities menu button of the top navigation (the WAI-ARIA menu button pattern). Its own few lines instead of
 * Headless UI's Menu: that code (about 100 kB) is not needed to draw a page, and loading it behind a stand-in button
 * could lose a click that came while the two were swapped.
 */
export function UtilitiesMenu({ onNavigate }: { onNavigate: () => void }) {
  const active = useLocation().pathname.startsWith('/utilities');
  // Which item takes the focus as the menu opens: none for a pointer (the menu itself has it), the first or the last
  // for the keyboard.
  const [open, setOpen] = useState<{ focus: number | null } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = useRef<Array<HTMLAnchorElement | null>>([]);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    if (open.focus === null) menu.current?.focus();
    else items.current[open.focus]?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    setOpen({ focus: event.key === 'ArrowDown' ? 0 : utilityLinks.length - 1 });
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const count = utilityLinks.length;
    const current = items.current.indexOf(document.activeElement as HTMLAnchorElement);
    const focusItem = (index: number) => {
      event.preventDefault();
      items.current[(index + count) % count]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return focusItem(current + 1);
      case 'ArrowUp':
        return focusItem(current < 0 ? count - 1 : current - 1);
      case 'Home':
        return focusItem(0);
      case 'End':
        return focusItem(count - 1);
      case ' ':
        event.preventDefault();
        if (current >= 0) items.current[current]?.click();
        return;
      case 'Escape':
        event.preventDefault();
        setOpen(null);
        button.current?.focus();
        return;
      case 'Tab':
        setOpen(null);
        return;
    }
  };

  return (
    <div
      ref={root}
      className="relative"
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(null);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? menuId : undefined}
        className={utilitiesButtonClass(active)}
        // A click from Enter or Space (detail 0) opens on the first item; a pointer's click toggles the menu.
        onClick={(event) => setOpen((current) => (current && event.detail > 0 ? null : { focus: event.detail > 0 ? null : 0 }))}
        onKeyDown={onButtonKeyDown}
      >
        <UtilitiesButtonFace />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Utilities"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute left-0 top-full z-50 mt-1 flex w-60 flex-col rounded-lg border border-border bg-panel p-1 shadow-xl focus:outline-none"
        >
          {utilityLinks.map(([to, label], index) => (
            <Link
              key={to}
              ref={(element) => {
                items.current[index] = element;
              }}
              to={to}
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(null);
                onNavigate();
              }}
              onPointerEnter={(event) => event.currentTarget.focus()}
              className="rounded-md px-3 py-2 text-sm text-text outline-none focus:bg-panel-alt focus:text-primary"
            >
              {label}
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}
