import { mdiAccountOutline } from '@mdi/js';
import { useState } from 'react';
import type { CollectionImage, Role } from '@shoko-ts/contract';
import { imageUrl } from '@/api/images';
import { Icon } from '@/components/Icon';

function Portrait({ image, className }: { image: CollectionImage | null | undefined; className: string }) {
  const [failed, setFailed] = useState(false);
  if (!image || failed)
    return (
      <div className={`${className} flex items-center justify-center bg-panel-alt text-muted`}>
        <Icon path={mdiAccountOutline} size={1.5} />
      </div>
    );
  return <img src={imageUrl(image)} alt="" loading="lazy" onError={() => setFailed(true)} className={`${className} object-cover`} />;
}

/** A credit: the character with its voice actor (Characters), or the staff member with the role (Staff). */
export function PersonCard({ role, mode }: { role: Role; mode: 'Characters' | 'Staff' }) {
  const character = mode === 'Characters' ? role.Character : undefined;
  const main = character ?? role.Staff;
  const secondary = character ? role.Staff.Name || 'No Voice Actor' : null;
  return (
    <div className="flex h-full gap-3 rounded-lg border border-border bg-panel-alt p-3" data-testid="credit-card">
      <Portrait image={main.Image} className="h-[96px] w-[68px] shrink-0 rounded-md" />
      <div className="flex min-w-0 flex-col gap-1 text-sm">
        <span className="break-words font-semibold">{main.Name}</span>
        {secondary && <span className="text-muted">{secondary}</span>}
        <span className="text-xs text-primary">{role.RoleDetails}</span>
      </div>
    </div>
  );
}
