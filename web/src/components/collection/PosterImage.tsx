import { useState } from 'react';
import type { CollectionImage, Group } from '@shoko-ts/contract';
import { imageUrl } from '@/api/images';

// Apart from the grid (GroupGrid.tsx): the group and series pages draw posters too, and importing them from the grid
// made those pages load the grid and its virtualizer.

/** Local episodes (all types) not yet watched: never negative. */
export function unwatchedCount(group: { Sizes: Pick<Group['Sizes'], 'Local' | 'Watched'> }): number {
  const { Local, Watched } = group.Sizes;
  return Math.max(Local.Episodes + Local.Specials + Local.Others - Watched.Episodes - Watched.Specials - Watched.Others, 0);
}

/** A poster image, or a plain 'No poster' panel when there is none or it fails to load. */
export function PosterImage({ image, className }: { image: CollectionImage | undefined; className: string }) {
  const [failed, setFailed] = useState(false);
  if (!image || failed)
    return <div className={`${className} flex items-center justify-center bg-panel-alt text-xs text-muted`}>No poster</div>;
  return <img src={imageUrl(image)} alt="" loading="lazy" onError={() => setFailed(true)} className={`${className} object-cover`} />;
}
