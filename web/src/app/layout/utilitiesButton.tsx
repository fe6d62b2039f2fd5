import { mdiChevronDown, mdiToolboxOutline } from '@mdi/js';
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

export const utilitiesButtonClass = (active: boolean) =>
  `flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold transition-colors ${active ? 'text-primary' : 'text-muted hover:text-text'}`;

export function UtilitiesButtonFace() {
  return (
    <>
      <Icon path={mdiToolboxOutline} size={0.85} />
      Utilities
      <Icon path={mdiChevronDown} size={0.75} />
    </>
  );
}
