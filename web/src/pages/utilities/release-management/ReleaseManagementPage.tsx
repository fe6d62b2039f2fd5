import { mdiCheckboxMultipleMarkedOutline, mdiCheck, mdiClose, mdiEyeOffOutline, mdiRefresh } from '@mdi/js';
import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import {
  releaseTogglesOf,
  useApplyReleaseChanges,
  useHideEpisodes,
  useReleaseSeries,
  RELEASE_PAGE_SIZE,
  type ReleaseToggles,
} from '@/api/releaseManagement';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { ListState, Pager, SelectableList } from '@/components/List';
import { ListPanel, PlaceholderPanel } from '@/components/Panel';
import { NavTabs } from '@/components/Tabs';
import { Toggle } from '@/components/Toggle';
import { usePageTitle } from '../UtilityParts';
import { ConfirmDeleteModal } from './ConfirmDeleteModal';
import { EpisodePanel, type OpenedEpisode } from './EpisodePanel';
import { QuickSelectModal } from './QuickSelectModal';
import { ITEM_TYPES, itemTypeOf, planEpisode, type Plan } from './selection';

/** Utilities → Release Management: multiple releases, duplicate files and missing episodes, series left, episodes right. */
export default function ReleaseManagementPage() {
  usePageTitle('Release Management');
  const itemType = itemTypeOf(useParams().itemType);
  const type = itemType.api;
  const [params, setParams] = useSearchParams();
  const toggles: ReleaseToggles = useMemo(() => releaseTogglesOf(params), [params]);
  const setToggle = (name: 'ignoreVariations' | 'onlyCollecting' | 'onlyFinishedSeries', value: boolean) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, String(value));
        return next;
      },
      { replace: true },
    );
    reset();
  };

  const [seriesPage, setSeriesPage] = useState(1);
  const series = useReleaseSeries(type, toggles, seriesPage);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const list = series.data?.List ?? [];
  const chosen = list.find((s) => s.IDs.ID === chosenId) ?? null;
  const [opened, setOpened] = useState<OpenedEpisode | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [quickSelect, setQuickSelect] = useState(false);
  const [pending, setPending] = useState<Plan | null>(null);
  const apply = useApplyReleaseChanges();
  const hide = useHideEpisodes();

  function reset() {
    setSeriesPage(1);
    setChosenId(null);
    setOpened(null);
    setHidden(new Set());
  }

  const run = (plan: Plan) =>
    apply.mutate(plan.changes, {
      onSuccess: () => {
        toast.success('Successful!');
        setOpened(null);
      },
      onSettled: () => setPending(null),
    });
  const confirmEpisode = () => {
    if (!opened) return;
    const plan = planEpisode(type, opened.episode, opened.options);
    if (plan.blocked) return toast.error(plan.blocked);
    if (plan.removedPaths.length) setPending(plan);
    else run(plan);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <NavTabs
        label="Release management tabs"
        tabs={ITEM_TYPES.map((tab) => ({ key: tab.key, to: { pathname: `../${tab.key}`, search: params.toString() }, label: tab.label }))}
        current={itemType.key}
        relative="path"
        onNavigate={reset}
      />
      <div
        className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-xl border border-border bg-panel px-3 py-2"
        role="toolbar"
        aria-label="Release management options"
      >
        <h1 className="mr-auto text-xl font-semibold">Release Management</h1>
        {type === 'MultipleReleases' && (
          <Toggle label="Ignore Variations" checked={toggles.ignoreVariations} onChange={(v) => setToggle('ignoreVariations', v)} />
        )}
        {type === 'MissingEpisodes' && (
          <Toggle label="Only Collecting" checked={toggles.collecting} onChange={(v) => setToggle('onlyCollecting', v)} />
        )}
        <Toggle label="Only Finished Series" checked={toggles.onlyFinishedSeries} onChange={(v) => setToggle('onlyFinishedSeries', v)} />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void series.refetch()} aria-label="Refresh">
            <Icon path={mdiRefresh} size={0.8} spin={series.isFetching} />
            Refresh
          </Button>
          {type !== 'MissingEpisodes' && (
            <Button variant="secondary" disabled={!chosen} onClick={() => setQuickSelect(true)}>
              <Icon path={mdiCheckboxMultipleMarkedOutline} size={0.8} />
              Quick Select
            </Button>
          )}
          {type === 'MissingEpisodes' && (
            <Button
              variant="secondary"
              disabled={!hidden.size}
              busy={hide.isPending}
              onClick={() =>
                hide.mutate([...hidden], { onSuccess: () => toast.success('Successful!'), onSettled: () => setHidden(new Set()) })
              }
            >
              <Icon path={mdiEyeOffOutline} size={0.8} />
              Hide
            </Button>
          )}
          {opened && (
            <>
              <Button variant="secondary" onClick={() => setOpened(null)}>
                <Icon path={mdiClose} size={0.8} />
                Cancel
              </Button>
              <Button busy={apply.isPending} onClick={confirmEpisode}>
                <Icon path={mdiCheck} size={0.8} />
                Confirm
              </Button>
            </>
          )}
        </div>
      </div>
      <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ListPanel label="Series">
          <div className="flex items-center justify-between text-sm">
            <h2 className="font-semibold">Series</h2>
            <span className="text-xs text-muted" data-testid="series-total">
              {series.isPending ? '…' : `${series.data?.Total ?? 0} series`}
            </span>
          </div>
          <ListState
            loading={series.isPending}
            error={series.error}
            empty={!list.length}
            emptyText={itemType.empty}
            loadingText="Loading series…"
          />
          <SelectableList
            items={list}
            getKey={(item) => item.IDs.ID}
            selectedKey={chosen?.IDs.ID}
            testId="release-series"
            onSelect={(item) => {
              setChosenId(item.IDs.ID);
              setOpened(null);
              setHidden(new Set());
            }}
          >
            {(item) => (
              <>
                <span className="min-w-0 flex-1 truncate font-semibold">{item.Name}</span>
                <span className="hidden text-xs opacity-75 sm:inline">AniDB {item.IDs.AniDB}</span>
                <span
                  className="rounded-full bg-panel-alt px-2 py-0.5 text-xs font-semibold text-text"
                  aria-label={`${item.EpisodeCount} entries`}
                >
                  {item.EpisodeCount}
                </span>
              </>
            )}
          </SelectableList>
          <Pager
            label="Series pages"
            page={seriesPage}
            pageSize={RELEASE_PAGE_SIZE}
            total={series.data?.Total ?? 0}
            onPage={setSeriesPage}
          />
        </ListPanel>
        {chosen ? (
          <EpisodePanel
            key={`${type}-${chosen.IDs.ID}`}
            type={type}
            series={chosen}
            toggles={toggles}
            opened={opened}
            onOpen={setOpened}
            hidden={hidden}
            onHiddenChange={setHidden}
          />
        ) : (
          <PlaceholderPanel testId="select-series">Select series to populate</PlaceholderPanel>
        )}
      </div>
      {quickSelect && chosen && type !== 'MissingEpisodes' && (
        <QuickSelectModal
          type={type}
          series={chosen}
          toggles={toggles}
          onClose={() => setQuickSelect(false)}
          onDone={() => setOpened(null)}
        />
      )}
      {pending && (
        <ConfirmDeleteModal
          paths={pending.removedPaths}
          busy={apply.isPending}
          onCancel={() => setPending(null)}
          onConfirm={() => run(pending)}
        />
      )}
    </div>
  );
}
