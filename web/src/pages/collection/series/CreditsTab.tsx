import { mdiRefresh } from '@mdi/js';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { useRefreshSeriesAniDB, useSeriesCast } from '@/api/series';
import { useIsAdmin } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { EmptyNote, ToolbarPanel } from '@/components/Panel';
import { SearchBox } from '@/components/SearchBox';
import { QueryContent } from '@/components/QueryContent';
import { ToggleGroup } from '@/components/ToggleGroup';
import { PersonCard } from '@/components/series/PersonCard';
import { useSeriesContext } from './seriesContext';

const MODES = ['Characters', 'Staff'] as const;
type Mode = (typeof MODES)[number];
const ALL_ROLES = 'All Roles';

/** Credits: characters (with voice actors) or staff, searchable by name and filterable by role, in a 3-lane grid. */
export default function CreditsTab() {
  const { seriesId } = useSeriesContext();
  const cast = useSeriesCast(seriesId);
  const refresh = useRefreshSeriesAniDB(seriesId);
  const isAdmin = useIsAdmin();
  const [mode, setMode] = useState<Mode>('Characters');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState(ALL_ROLES);

  const credits = useMemo(
    () => (cast.data ?? []).filter((r) => (mode === 'Characters' ? r.RoleName === 'Actor' && !!r.Character : r.RoleName !== 'Actor')),
    [cast.data, mode],
  );
  const roles = useMemo(() => [...new Set(credits.map((r) => r.RoleDetails))].sort(), [credits]);
  const query = search.trim().toLowerCase();
  const shown = credits.filter(
    (r) =>
      (role === ALL_ROLES || r.RoleDetails === role) &&
      (!query || [r.Character?.Name, r.Staff.Name].some((name) => name?.toLowerCase().includes(query))),
  );
  const switchMode = (next: Mode) => {
    setMode(next);
    setRole(ALL_ROLES);
  };
  const forceRefresh = () => refresh.mutate(undefined, { onSuccess: () => toast.success('AniDB refresh queued!') });

  return (
    <div className="flex flex-col gap-3">
      <ToolbarPanel label="Credit filters">
        <ToggleGroup label="Credit type" options={MODES} value={mode} onChange={switchMode} />
        <SearchBox label="Search credits" placeholder="Search by name…" value={search} onChange={setSearch} className="sm:w-64" onPanel />
        <select
          aria-label="Role"
          value={role}
          onChange={(event) => setRole(event.target.value)}
          className="rounded-md border border-border bg-panel-alt px-2 py-2 text-sm focus:border-primary focus:outline-none"
        >
          <option>{ALL_ROLES}</option>
          {roles.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
        {isAdmin && (
          <Button variant="secondary" className="sm:ml-auto" onClick={forceRefresh} busy={refresh.isPending}>
            <Icon path={mdiRefresh} size={0.8} /> Force Refresh
          </Button>
        )}
      </ToolbarPanel>
      <QueryContent
        query={cast}
        empty={
          shown.length === 0 && (
            <EmptyNote testId="credits-empty">
              {credits.length ? 'No credits match the filters.' : mode === 'Characters' ? 'No characters listed.' : 'No staff listed.'}
            </EmptyNote>
          )
        }
      >
        {() => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label={mode} role="list">
            {shown.map((r, index) => (
              <div role="listitem" key={`${r.Character?.ID ?? ''}-${r.Staff.ID ?? ''}-${r.RoleDetails}-${index}`}>
                <PersonCard role={r} mode={mode} />
              </div>
            ))}
          </div>
        )}
      </QueryContent>
    </div>
  );
}
