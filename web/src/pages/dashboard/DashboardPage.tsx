import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useState, type ComponentType, type CSSProperties } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { mdiDrag } from '@mdi/js';
import { useBlocker } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { setDashboardEditing, useDashboardEditing } from '@/components/dashboard/editMode';
import {
  breakpointFor,
  closeGaps,
  nudgeWidget,
  DEFAULT_DASHBOARD_LAYOUTS,
  gridLayouts,
  mergeLayouts,
  type DashboardLayoutItem,
  type DashboardLayouts,
} from '@/components/dashboard/layout';
import {
  CollectionStatsWidget,
  ImportFoldersWidget,
  MediaTypeWidget,
  QueueProcessorWidget,
  UnrecognizedFilesWidget,
} from '@/components/dashboard/CollectionWidgets';
import {
  ContinueWatchingWidget,
  NextUpWidget,
  RecentlyImportedWidget,
  RecommendedAnimeWidget,
  UpcomingAnimeWidget,
} from '@/components/dashboard/EpisodeWidgets';
import { NewsWidget } from '@/components/dashboard/NewsWidget';
import { OfflineFoldersNotice } from '@/components/dashboard/OfflineFoldersNotice';
import { useDashboardSettings, type DashboardSettings } from '@/components/dashboard/settings';
import { prefetchMissingWidgets } from './prefetch';
import { StaticGrid } from './StaticGrid';
import { WelcomeModal } from './WelcomeModal';

// The grid library (dragging, resizing) is needed only while the layout is edited.
const EditableGrid = lazy(() => import('./EditableGrid'));

interface WidgetSpec {
  /** Also the item key in `WebUI_Settings.layout.dashboard`, the same as Shoko's console uses. */
  id: string;
  title: string;
  hideFlag: keyof DashboardSettings;
  component: ComponentType<{ settings: DashboardSettings; onChange: (settings: DashboardSettings) => void }>;
}

export const DASHBOARD_WIDGETS: WidgetSpec[] = [
  { id: 'queueProcessor', title: 'Queue Processor', hideFlag: 'hideQueueProcessor', component: QueueProcessorWidget },
  { id: 'unrecognizedFiles', title: 'Unrecognized Files', hideFlag: 'hideUnrecognizedFiles', component: UnrecognizedFilesWidget },
  { id: 'collectionBreakdown', title: 'Collection Statistics', hideFlag: 'hideCollectionStats', component: CollectionStatsWidget },
  { id: 'recentlyImported', title: 'Recently Imported', hideFlag: 'hideRecentlyImported', component: RecentlyImportedWidget },
  { id: 'collectionTypeBreakdown', title: 'Media Type', hideFlag: 'hideMediaType', component: MediaTypeWidget },
  { id: 'importFolders', title: 'Import Folders', hideFlag: 'hideImportFolders', component: ImportFoldersWidget },
  { id: 'continueWatching', title: 'Continue Watching', hideFlag: 'hideContinueWatching', component: ContinueWatchingWidget },
  { id: 'shokoNews', title: 'Shoko News', hideFlag: 'hideShokoNews', component: NewsWidget },
  { id: 'nextUp', title: 'Next Up', hideFlag: 'hideNextUp', component: NextUpWidget },
  { id: 'upcomingAnime', title: 'Upcoming Anime', hideFlag: 'hideUpcomingAnime', component: UpcomingAnimeWidget },
  { id: 'recommendedAnime', title: 'Recommended Anime', hideFlag: 'hideRecommendedAnime', component: RecommendedAnimeWidget },
];

/** Arrow keys on a focused widget in edit mode: one column sideways, two rows (48 px) up or down. */
const KEY_STEPS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Widgets the settings leave visible; Continue Watching folds into Next Up when the two are combined. */
export function visibleWidgets(settings: DashboardSettings): WidgetSpec[] {
  return DASHBOARD_WIDGETS.filter(
    (widget) => !settings[widget.hideFlag] && !(widget.id === 'continueWatching' && settings.combineContinueWatching),
  );
}

/** The width of an element, measured before the grid is drawn (0 until then) and kept current while it resizes. */
function useWidth() {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!node) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- measuring the DOM before the first paint is what a layout effect is for
    setWidth(Math.round(node.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.round(entry.contentRect.width)));
    observer.observe(node);
    return () => observer.disconnect();
  }, [node]);
  return [setNode, width] as const;
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

  // Widgets with nothing to show yet are asked for together before they ask on their own: a layout effect runs before
  // their effects. The settings are compared as text: `settings` is a new object on every render.
  const queryClient = useQueryClient();
  const settingsText = JSON.stringify(settings);
  useLayoutEffect(() => {
    prefetchMissingWidgets(queryClient, JSON.parse(settingsText) as DashboardSettings);
  }, [queryClient, settingsText]);

  const editing = useDashboardEditing();
  const widgets = visibleWidgets(settings);
  const ids = widgets.map((widget) => widget.id).join(' ');
  // Hidden widgets leave no holes: the visible ones close up, shown and as the start of an edit. (The compiler doubts
  // the memo for the same reason as `layouts` below; `ids` is a string.)
  // eslint-disable-next-line react-hooks/preserve-manual-memoization
  const savedLayouts = useMemo(() => closeGaps(layout ?? DEFAULT_DASHBOARD_LAYOUTS, ids.split(' ')), [layout, ids]);
  const [draft, setDraft] = useState<DashboardLayouts | null>(null);
  // Entering edit mode starts a draft from the saved layout; leaving it drops the draft.
  const [draftFor, setDraftFor] = useState<boolean | null>(null);
  if (draftFor !== editing) {
    setDraftFor(editing);
    setDraft(editing ? savedLayouts : null);
  }
  // Leaving the page ends edit mode without saving.
  useEffect(() => () => setDashboardEditing(false), []);
  const blocker = useBlocker(editing);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    toast.warning('Save or cancel the dashboard layout first.');
    blocker.reset();
  }, [blocker]);

  const [measure, width] = useWidth();
  const breakpoint = breakpointFor(width);
  // Below 640 px the widgets stack in one column; that is not arranged.
  const arranging = editing && breakpoint !== 'xs';
  const current = editing && draft ? draft : savedLayouts;
  // The grid must get the same layouts object while nothing changed (a new one re-lays it out). The compiler doubts the memo
  // because `settings` goes on to the widgets, but `ids` is a string; the build does not run the compiler in any case.
  // eslint-disable-next-line react-hooks/preserve-manual-memoization
  const layouts = useMemo(() => gridLayouts(current, ids.split(' ')), [current, ids]);
  const onLayoutChange = (_: unknown, all: Partial<Record<string, ReadonlyArray<Partial<DashboardLayoutItem>>>>) => {
    if (editing) setDraft((before) => mergeLayouts(before ?? savedLayouts, all));
  };
  const finish = (change: Promise<void> | null) => {
    if (!change) return setDashboardEditing(false);
    change.then(
      () => {
        setDashboardEditing(false);
        toast.success('Dashboard layout saved!');
      },
      () => undefined,
    );
  };

  const idList = widgets.map((widget) => widget.id);
  /**
   * A widget's cell; the static grid places it itself, react-grid-layout adds its own class and style. The drag handles
   * come with the grid that moves them: while the grid loads for edit mode the widgets stay as they were.
   */
  const renderWidget = (id: string, placement?: { className: string; style: CSSProperties }) => {
    const withHandle = arranging && !placement;
    const { title, component: Component } = widgets.find((widget) => widget.id === id)!;
    return (
      <div key={id} data-widget={id} className={`flex min-w-0 flex-col ${placement?.className ?? ''}`} style={placement?.style}>
        <div className={`flex min-h-0 flex-1 flex-col [&>section]:flex-1 ${editing ? 'pointer-events-none select-none' : ''}`}>
          <Component settings={settings} onChange={onChange} />
        </div>
        {withHandle && (
          <div
            className="dashboard-drag-handle absolute inset-0 flex cursor-move justify-center rounded-xl outline-2 outline-offset-4 outline-border outline-dashed hover:outline-primary focus-visible:outline-primary"
            data-testid="drag-handle"
            role="button"
            tabIndex={0}
            aria-label={`Move ${title}`}
            aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Shift+ArrowLeft Shift+ArrowRight Shift+ArrowUp Shift+ArrowDown"
            onKeyDown={(event) => {
              const step = KEY_STEPS[event.key];
              if (!step) return;
              event.preventDefault();
              // Arrows move the widget; with Shift they resize it.
              const change = event.shiftKey ? { dw: step[0], dh: step[1] * 2 } : { dx: step[0], dy: step[1] * 2 };
              setDraft((before) => nudgeWidget(before ?? savedLayouts, breakpoint, id, change));
            }}
          >
            <span className="mt-2 flex h-fit items-center gap-1 rounded-md bg-header/90 px-2 py-1 text-xs font-semibold text-muted">
              <Icon path={mdiDrag} size={0.75} />
              Drag to move
            </span>
          </div>
        )}
      </div>
    );
  };

  return (
    <div className="mx-auto flex w-full max-w-[1920px] flex-col gap-6 p-3 md:p-6" data-testid="dashboard">
      <OfflineFoldersNotice />
      {widgets.length ? (
        // Pictures in a widget are not dragged or selected, as react-grid-layout's stylesheet has it in edit mode.
        <div
          ref={measure}
          className="dashboard-grid min-w-0 [&_.react-grid-item_img]:pointer-events-none [&_.react-grid-item_img]:select-none"
        >
          {width > 0 &&
            (editing ? (
              <Suspense
                fallback={<StaticGrid width={width} breakpoint={breakpoint} layouts={layouts} ids={idList} renderWidget={renderWidget} />}
              >
                <EditableGrid width={width} breakpoint={breakpoint} layouts={layouts} arranging={arranging} onLayoutChange={onLayoutChange}>
                  {widgets.map(({ id }) => renderWidget(id))}
                </EditableGrid>
              </Suspense>
            ) : (
              <StaticGrid width={width} breakpoint={breakpoint} layouts={layouts} ids={idList} renderWidget={renderWidget} />
            ))}
        </div>
      ) : (
        <p className="py-20 text-center text-muted">Every widget is hidden. Show some from Dashboard Settings in the top bar.</p>
      )}
      {editing && (
        <div
          role="status"
          aria-label="Dashboard edit mode"
          className="fixed bottom-4 left-1/2 z-50 flex w-[min(36rem,calc(100%-1.5rem))] -translate-x-1/2 flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-panel p-4 shadow-2xl"
        >
          <span className="text-sm font-semibold">
            Edit mode: drag the widgets to arrange them.
            {arranging ? (
              <span className="block font-normal text-muted">
                Or focus one with Tab and use the arrow keys; Shift with an arrow resizes it.
              </span>
            ) : (
              <span className="block font-normal text-muted">Widen the window to at least 640 px to move or resize them.</span>
            )}
          </span>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => finish(saveLayout(DEFAULT_DASHBOARD_LAYOUTS))}>
              Reset to Default
            </Button>
            <Button variant="secondary" onClick={() => finish(null)}>
              Cancel
            </Button>
            <Button onClick={() => finish(saveLayout(draft ?? savedLayouts))}>Save</Button>
          </div>
        </div>
      )}
      <WelcomeModal />
    </div>
  );
}
