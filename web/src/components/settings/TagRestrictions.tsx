import { mdiMinusCircleOutline, mdiPlusCircleOutline } from '@mdi/js';
import { useMemo, useState } from 'react';
import type { Tag } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';

/** AniDB has thousands of tags; the available list shows this many matches and asks for a narrower search. */
const SHOWN_MATCHES = 200;

/** Available AniDB tags (searchable) beside the tags a user is restricted from. */
export function TagRestrictions({
  tags,
  loading,
  error,
  selected,
  onChange,
}: {
  tags: Tag[] | undefined;
  loading: boolean;
  error: Error | null;
  selected: number[];
  onChange: (ids: number[]) => void;
}) {
  const [search, setSearch] = useState('');
  const byId = useMemo(() => new Map((tags ?? []).map((t) => [t.ID, t])), [tags]);
  const matches = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const chosen = new Set(selected);
    return (tags ?? []).filter((t) => !chosen.has(t.ID) && (!needle || t.Name.toLowerCase().includes(needle)));
  }, [tags, search, selected]);

  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="flex min-w-0 flex-col gap-2">
        <TextField label="Search Tags" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Search..." />
        <div className="h-64 overflow-y-auto rounded-md border border-border bg-background-alt p-1">
          {loading ? (
            <Spinner />
          ) : error ? (
            <div role="alert" className="p-2 text-sm text-danger">
              {error.message}
            </div>
          ) : !matches.length ? (
            <div className="p-2 text-sm text-muted">No tags found.</div>
          ) : (
            <>
              <ul aria-label="Available tags">
                {matches.slice(0, SHOWN_MATCHES).map((tag) => (
                  <li key={tag.ID}>
                    <TagButton
                      name={tag.Name}
                      action="Restrict"
                      icon={mdiPlusCircleOutline}
                      iconClass="text-primary"
                      onClick={() => onChange([...selected, tag.ID])}
                    />
                  </li>
                ))}
              </ul>
              {matches.length > SHOWN_MATCHES && (
                <div className="p-2 text-xs text-muted">{matches.length - SHOWN_MATCHES} more; narrow the search to see them.</div>
              )}
            </>
          )}
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-2">
        <span className="text-sm font-semibold">Restricted Tags</span>
        <div className="h-64 overflow-y-auto rounded-md border border-border bg-background-alt p-1">
          {!selected.length ? (
            <div className="p-2 text-sm text-muted">No Restricted Tags!</div>
          ) : (
            <ul aria-label="Restricted tags">
              {selected.map((id) => (
                <li key={id}>
                  <TagButton
                    name={byId.get(id)?.Name ?? `Tag ${id}`}
                    action="Unrestrict"
                    icon={mdiMinusCircleOutline}
                    iconClass="text-danger"
                    onClick={() => onChange(selected.filter((s) => s !== id))}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}

function TagButton({
  name,
  action,
  icon,
  iconClass,
  onClick,
}: {
  name: string;
  action: string;
  icon: string;
  iconClass: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={`${action} ${name}`}
      className="flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-sm hover:bg-panel-alt"
      onClick={onClick}
    >
      <span className="truncate">{name}</span>
      <Icon path={icon} size={0.75} className={`shrink-0 ${iconClass}`} />
    </button>
  );
}
