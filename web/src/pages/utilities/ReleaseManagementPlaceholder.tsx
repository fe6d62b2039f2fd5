import { NavLink, useParams } from 'react-router';
import { Placeholder } from '@/components/Placeholder';

const itemTypes = [
  ['multiples', 'Multiples'],
  ['duplicates', 'Duplicates'],
  ['missing-episodes', 'Missing Episodes'],
] as const;

/** Any item type other than the three known ones is treated as multiples. */
export function normaliseItemType(value: string | undefined): (typeof itemTypes)[number][0] {
  return itemTypes.find(([key]) => key === value)?.[0] ?? 'multiples';
}

export default function ReleaseManagementPlaceholder() {
  const current = normaliseItemType(useParams().itemType);
  return (
    <div className="flex flex-1 flex-col gap-4 p-4 md:p-6">
      <nav className="flex flex-wrap gap-2" aria-label="Release management tabs">
        {itemTypes.map(([key, label]) => (
          <NavLink
            key={key}
            to={`../${key}`}
            relative="path"
            className={`rounded-md px-3 py-1.5 text-sm font-semibold ${key === current ? 'bg-primary text-on-primary' : 'bg-panel text-muted hover:text-text'}`}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <Placeholder title={`Release Management — ${itemTypes.find(([key]) => key === current)![1]}`} feature="release management" />
    </div>
  );
}
