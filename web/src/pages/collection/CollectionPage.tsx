import { mdiCogOutline, mdiFilterMenuOutline, mdiFilterOutline, mdiFormatListBulleted, mdiViewGridOutline } from '@mdi/js';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { WebUIGroupExtra } from '@shoko-ts/contract';
import { groupKeys, pagesInView, useGroupViews, usePreviewGroupPages } from '@/api/collection';
import { previewBody, searchCondition, usePreset } from '@/api/filters';
import { Button } from '@/components/Button';
import { CountBadge } from '@/components/CountBadge';
import { Icon } from '@/components/Icon';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { useCollectionSettings } from '@/components/collection/collectionSettings';
import { DisplaySettingsModal } from '@/components/collection/DisplaySettingsModal';
import { FilterPresetsModal } from '@/components/collection/FilterPresetsModal';
import { FilterSidebar } from '@/components/collection/FilterSidebar';
import { conditionsExpression } from '@/components/collection/filterConditions';
import { useLiveConditions } from '@/components/collection/useLiveConditions';
import { GroupGrid } from '@/components/collection/GroupGrid';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import GroupPage from './GroupPage';

const SEARCH_DEBOUNCE_MS = 200;

/** /collection, /collection/filter/{id|live} and the group pages below them. */
export default function CollectionPage() {
  const { groupId } = useParams();
  if (groupId) return <GroupPage key={groupId} groupId={Number(groupId)} />;
  return <GroupsBrowser />;
}

function GroupsBrowser() {
  const { filterId } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const live = filterId === 'live';
  const presetId = filterId && !live && /^\d+$/.test(filterId) ? Number(filterId) : null;
  const preset = usePreset(presetId);
  const [conditions, setConditions] = useLiveConditions();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const { settings, update } = useCollectionSettings();
  const [presetsOpen, setPresetsOpen] = useState(false);
  const [displayOpen, setDisplayOpen] = useState(false);

  const body = useMemo(
    () =>
      previewBody([searchCondition(search), live ? conditionsExpression(conditions) : null, preset.data?.Expression], preset.data?.Sorting),
    [search, live, conditions, preset.data],
  );
  // The rows in view (0-based group positions, from the grid) decide which pages are asked for; a new filter or search
  // starts again at the top, with the count its first page tells.
  const [range, setRange] = useState({ first: 0, last: 0 });
  const [knownTotal, setKnownTotal] = useState<{ body: typeof body; total: number | undefined }>({ body, total: undefined });
  if (knownTotal.body !== body) {
    setKnownTotal({ body, total: undefined });
    setRange({ first: 0, last: 0 });
  }
  const onRangeChange = useCallback(
    (first: number, last: number) => setRange((r) => (r.first === first && r.last === last ? r : { first, last })),
    [],
  );
  const groups = usePreviewGroupPages(body, settings.image.showRandomPoster, pagesInView(range.first, range.last, knownTotal.total));
  if (knownTotal.body === body && groups.total !== undefined && groups.total !== knownTotal.total)
    setKnownTotal({ body, total: groups.total });
  const list = groups.loaded;
  const total = groups.total ?? 0;
  // List rows need extras (type, tags) for every loaded group: ask for the next ≤100 not yet asked for.
  const [extras, setExtras] = useState<{ asked: ReadonlySet<number>; byId: Map<number, WebUIGroupExtra> }>({
    asked: new Set(),
    byId: new Map(),
  });
  const pendingIds = useMemo(
    () =>
      list
        .map((g) => g.IDs.ID)
        .filter((id) => !extras.asked.has(id))
        .slice(0, 100),
    [list, extras.asked],
  );
  const views = useGroupViews(pendingIds, settings.view === 'list');
  // Each new answer is merged once; pendingIds is derived from `asked`, so the answer is what moves it on.
  const [merged, setMerged] = useState<typeof views.data>(undefined);
  if (views.data && views.data !== merged) {
    const answered = views.data;
    setMerged(answered);
    setExtras((current) => ({
      asked: new Set([...current.asked, ...pendingIds]),
      byId: new Map([...current.byId, ...answered.map((v) => [v.ID, v] as const)]),
    }));
  }

  const title = presetId ? (preset.data?.Name ?? 'Filter') : live ? 'Live Filter' : 'Entire Collection';
  useEffect(() => {
    document.title = `${title} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [title]);

  const toggleMode = () => {
    const view = settings.view === 'poster' ? 'list' : 'poster';
    // Switching to list starts the list previews afresh.
    if (view === 'list') {
      setExtras({ asked: new Set(), byId: new Map() });
      void queryClient.resetQueries({ queryKey: groupKeys.views });
    }
    update({ ...settings, view });
  };
  const toggleFilter = () => navigate(live ? '/collection' : '/collection/filter/live');
  const busy = groups.isPending || (presetId !== null && preset.isPending);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-border bg-panel px-4 py-3">
        <h1 className="text-xl font-semibold">{title}</h1>
        <CountBadge pending={busy} testId="collection-total">
          {`${total.toLocaleString('en')} ${total === 1 ? 'Item' : 'Items'}`}
        </CountBadge>
        <SearchBox label="Search collection" value={searchText} onChange={setSearchText} className="sm:ml-auto sm:w-72" onPanel />
        <div className="flex gap-1" role="toolbar" aria-label="Collection view">
          <Button variant="ghost" className="px-2" aria-label="Filter presets" title="Filter presets" onClick={() => setPresetsOpen(true)}>
            <Icon path={mdiFilterMenuOutline} size={0.9} />
          </Button>
          <Button
            variant="ghost"
            className={`px-2 ${live ? 'text-primary' : ''}`}
            aria-label="Toggle filter"
            aria-pressed={live}
            title="Filter"
            onClick={toggleFilter}
          >
            <Icon path={mdiFilterOutline} size={0.9} />
          </Button>
          <Button
            variant="ghost"
            className="px-2"
            aria-label={settings.view === 'poster' ? 'Switch to list view' : 'Switch to poster view'}
            title={settings.view === 'poster' ? 'List view' : 'Poster view'}
            onClick={toggleMode}
          >
            <Icon path={settings.view === 'poster' ? mdiFormatListBulleted : mdiViewGridOutline} size={0.9} />
          </Button>
          <Button
            variant="ghost"
            className="px-2"
            aria-label="Display settings"
            title="Display settings"
            onClick={() => setDisplayOpen(true)}
          >
            <Icon path={mdiCogOutline} size={0.9} />
          </Button>
        </div>
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-3 lg:flex-row">
        {live && <FilterSidebar conditions={conditions} onChange={setConditions} onClose={() => navigate('/collection')} />}
        <div className="flex min-h-[60vh] min-w-0 flex-1 flex-col lg:min-h-0">
          {busy ? (
            <div className="flex flex-1 items-center justify-center">
              <Spinner />
            </div>
          ) : groups.error ? (
            <p className="p-6 text-center text-danger">{groups.error.message}</p>
          ) : total === 0 ? (
            <p className="p-6 text-center text-muted" data-testid="collection-empty">
              {search ? `Your search for ${search} returned zero results.` : 'No series/groups available!'}
            </p>
          ) : (
            <GroupGrid
              key={`${settings.view}|${JSON.stringify(body)}`}
              count={total}
              groupAt={groups.at}
              onRangeChange={onRangeChange}
              mode={settings.view}
              settings={settings}
              extras={extras.byId}
            />
          )}
        </div>
      </div>
      <FilterPresetsModal open={presetsOpen} onClose={() => setPresetsOpen(false)} />
      <DisplaySettingsModal
        key={JSON.stringify(settings)}
        open={displayOpen}
        onClose={() => setDisplayOpen(false)}
        settings={settings}
        onSave={update}
      />
    </div>
  );
}
