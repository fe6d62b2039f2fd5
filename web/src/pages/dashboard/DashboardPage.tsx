import { useEffect, useState, type ComponentType } from 'react';
import { useBlocker } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '@/components/Button';
import { setDashboardEditing, useDashboardEditing } from '@/components/dashboard/editMode';
import { moveWidget, orderWidgets } from '@/components/dashboard/layout';
import { CollectionStatsWidget, ImportFoldersWidget, MediaTypeWidget, QueueProcessorWidget, UnrecognizedFilesWidget } from '@/components/dashboard/CollectionWidgets';
import { ContinueWatchingWidget, NextUpWidget, RecentlyImportedWidget, RecommendedAnimeWidget, UpcomingAnimeWidget } from '@/components/dashboard/EpisodeWidgets';
import { NewsWidget } from '@/components/dashboard/NewsWidget';
import { useDashboardSettings, type DashboardSettings } from '@/components/dashboard/settings';
import { WelcomeModal } from './WelcomeModal';

interface WidgetSpec {
  id: string;
  title: string;
  hideFlag: keyof DashboardSettings;
  component: ComponentType<{ settings: DashboardSettings; onChange: (settings: DashboardSettings) => void }>;
  /** Grid columns per breakpoint (SPEC.md §9: lg 1024 → 12 columns, md 768 → 10, sm 640 → 6; one column below). */
  span: string;
  height: string;
}

const SMALL = 'sm:col-span-6 md:col-span-5 lg:col-span-4';
const WIDE = 'sm:col-span-6 md:col-span-10 lg:col-span-12';
const TWO_THIRDS = 'sm:col-span-6 md:col-span-5 lg:col-span-8';
const LIST_HEIGHT = 'max-h-[26rem] sm:h-[22rem]';
const PANEL_HEIGHT = 'max-h-96 sm:h-80';

export const DASHBOARD_WIDGETS: WidgetSpec[] = [
  { id: 'queue', title: 'Queue Processor', hideFlag: 'hideQueueProcessor', component: QueueProcessorWidget, span: SMALL, height: PANEL_HEIGHT },
  { id: 'unrecognized', title: 'Unrecognized Files', hideFlag: 'hideUnrecognizedFiles', component: UnrecognizedFilesWidget, span: SMALL, height: PANEL_HEIGHT },
  { id: 'collectionStats', title: 'Collection Statistics', hideFlag: 'hideCollectionStats', component: CollectionStatsWidget, span: SMALL, height: PANEL_HEIGHT },
  { id: 'recentlyImported', title: 'Recently Imported', hideFlag: 'hideRecentlyImported', component: RecentlyImportedWidget, span: 'sm:col-span-6 md:col-span-10 lg:col-span-8', height: LIST_HEIGHT },
  { id: 'mediaType', title: 'Media Type', hideFlag: 'hideMediaType', component: MediaTypeWidget, span: SMALL, height: LIST_HEIGHT },
  { id: 'importFolders', title: 'Import Folders', hideFlag: 'hideImportFolders', component: ImportFoldersWidget, span: SMALL, height: PANEL_HEIGHT },
  { id: 'continueWatching', title: 'Continue Watching', hideFlag: 'hideContinueWatching', component: ContinueWatchingWidget, span: TWO_THIRDS, height: LIST_HEIGHT },
  { id: 'shokoNews', title: 'Shoko News', hideFlag: 'hideShokoNews', component: NewsWidget, span: SMALL, height: LIST_HEIGHT },
  { id: 'nextUp', title: 'Next Up', hideFlag: 'hideNextUp', component: NextUpWidget, span: TWO_THIRDS, height: LIST_HEIGHT },
  { id: 'upcomingAnime', title: 'Upcoming Anime', hideFlag: 'hideUpcomingAnime', component: UpcomingAnimeWidget, span: WIDE, height: LIST_HEIGHT },
  { id: 'recommendedAnime', title: 'Recommended Anime', hideFlag: 'hideRecommendedAnime', component: RecommendedAnimeWidget, span: WIDE, height: LIST_HEIGHT },
];

/** Widgets the settings leave visible; Continue Watching folds into Next Up when the two are combined. */
export function visibleWidgets(settings: DashboardSettings): WidgetSpec[] {
  return DASHBOARD_WIDGETS.filter((widget) => !settings[widget.hideFlag] && !(widget.id === 'continueWatching' && settings.combineContinueWatching));
}

export default function DashboardPage() {
  const { settings: saved, loaded, layout, save, saveLayout } = useDashboardSettings();
  // View toggles (Episodes/Series, My Collection/All) apply at once and are saved in the background.
  const [overrides, setOverrides] = useState<Partial<DashboardSettings>>({});
  const settings = { ...saved, ...overrides };
  const onChange = (next: DashboardSettings) => {
    setOverrides({ recentlyImportedView: next.recentlyImportedView, upcomingAnimeView: next.upcomingAnimeView });
    if (loaded) void save(next).catch(() => undefined);
  };

  const editing = useDashboardEditing();
  const [draft, setDraft] = useState<string[] | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const savedOrder = orderWidgets(DASHBOARD_WIDGETS, layout).map((widget) => widget.id);
  useEffect(() => setDraft(editing ? savedOrder : null), [editing]); // eslint-disable-line react-hooks/exhaustive-deps
  // Leaving the page ends edit mode without saving.
  useEffect(() => () => setDashboardEditing(false), []);
  const blocker = useBlocker(editing);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    toast.warning('Save or cancel the dashboard layout first.');
    blocker.reset();
  }, [blocker]);

  const order = editing && draft ? draft : savedOrder;
  const widgets = orderWidgets(visibleWidgets(settings), order);
  const move = (id: string, targetId: string | undefined) => targetId && setDraft((current) => moveWidget(current ?? savedOrder, id, targetId));
  const finish = (change: Promise<void> | null) => {
    if (!change) return setDashboardEditing(false);
    change.then(() => {
      setDashboardEditing(false);
      toast.success('Dashboard layout saved!');
    }, () => undefined);
  };

  return (
    <div className="mx-auto flex w-full max-w-[1920px] flex-col gap-6 p-3 md:p-6" data-testid="dashboard">
      {widgets.length ? (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-6 md:grid-cols-10 lg:grid-cols-12">
          {widgets.map(({ id, title, component: Component, span, height }, index) => (
            <div
              key={id}
              className={`relative flex min-w-0 flex-col ${span} ${height} [&>section]:flex-1 ${editing ? `cursor-move rounded-xl outline-2 outline-offset-4 outline-dashed ${dragged === id ? 'opacity-50 outline-primary' : 'outline-border'}` : ''}`}
              draggable={editing}
              data-widget={id}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/plain', id);
                setDragged(id);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => editing && event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                move(event.dataTransfer.getData('text/plain') || dragged || '', id);
                setDragged(null);
              }}
            >
              {editing && (
                <div className="absolute top-2 right-2 z-10 flex gap-1 rounded-md bg-header/90 p-1">
                  <button type="button" className="rounded px-2 text-sm text-muted hover:text-text disabled:opacity-30" aria-label={`Move ${title} earlier`} disabled={index === 0} onClick={() => move(id, widgets[index - 1]?.id)}>
                    ←
                  </button>
                  <button type="button" className="rounded px-2 text-sm text-muted hover:text-text disabled:opacity-30" aria-label={`Move ${title} later`} disabled={index === widgets.length - 1} onClick={() => move(id, widgets[index + 1]?.id)}>
                    →
                  </button>
                </div>
              )}
              <div className={`flex min-h-0 flex-1 flex-col [&>section]:flex-1 ${editing ? 'pointer-events-none select-none' : ''}`}>
                <Component settings={settings} onChange={onChange} />
              </div>
            </div>
          ))}
        </div>
      ) : (
        <p className="py-20 text-center text-muted">Every widget is hidden. Show some from Dashboard Settings in the top bar.</p>
      )}
      {editing && (
        <div role="status" aria-label="Dashboard edit mode" className="fixed bottom-4 left-1/2 z-50 flex w-[min(36rem,calc(100%-1.5rem))] -translate-x-1/2 flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-panel p-4 shadow-2xl">
          <span className="text-sm font-semibold">Edit mode: drag the widgets to arrange them.</span>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => finish(saveLayout(null))}>Reset to Default</Button>
            <Button variant="secondary" onClick={() => finish(null)}>Cancel</Button>
            <Button onClick={() => finish(saveLayout(draft))}>Save</Button>
          </div>
        </div>
      )}
      <WelcomeModal />
    </div>
  );
}
