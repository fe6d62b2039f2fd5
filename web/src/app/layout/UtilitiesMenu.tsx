import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { mdiChevronDown, mdiToolboxOutline } from '@mdi/js';
import { Link, useLocation } from 'react-router';
import { Icon } from '@/components/Icon';

export const utilityLinks = [
  ['/utilities/unrecognized/files', 'Unrecognized Files'],
  ['/utilities/unrecognized/manually-linked-files', 'Manually Linked Files'],
  ['/utilities/unrecognized/ignored-files', 'Ignored Files'],
  ['/utilities/release-management', 'Release Management'],
  ['/utilities/series-without-files', 'Series Without Files'],
  ['/utilities/file-search', 'File Search'],
  ['/utilities/renamer', 'Renamer'],
] as const;

export function UtilitiesMenu({ onNavigate }: { onNavigate: () => void }) {
  const active = useLocation().pathname.startsWith('/utilities');
  return (
    <Menu as="div" className="relative">
      <MenuButton
        className={`flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold transition-colors ${active ? 'text-primary' : 'text-muted hover:text-text'}`}
      >
        <Icon path={mdiToolboxOutline} size={0.85} />
        Utilities
        <Icon path={mdiChevronDown} size={0.75} />
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
