import type { QueryClient } from '@tanstack/react-query';
import { prefetchDashboard } from '@/api/dashboard';
import { fetchConsoleSettings } from '@/api/settings';
import { parseDashboardSettings, type DashboardSettings } from '@/components/dashboard/settings';

/*
 * The dashboard route's loader (app/landing.ts) imports this module on its own, and the page imports it too: a module
 * only the loader imports got a chunk of its own (338 bytes) that no route preloads, so the widgets' request waited
 * for one more script (100-400 ms in traces at 100k files, queued behind the page's scripts); shared with the page, it
 * goes to the dashboard's shared chunk, which the route preloads beside the entry.
 */

/**
 * Asks for the visible widgets' data in one Dashboard/Summary call, by the stored dashboard settings (fetched once,
 * shared with the layout).
 */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  const settings = await fetchConsoleSettings(queryClient);
  prefetchDashboard(queryClient, parseDashboardSettings(settings.WebUI_Settings));
}

/**
 * Widgets drawn with nothing to show yet (the loader had not asked for them — right after a login the page may be
 * drawn first —, or a setting changed what they show) are asked for in one Dashboard/Summary call, by the settings they
 * are drawn with; a widget already shown refreshes on its own events, not when another one changes.
 */
export function prefetchMissingWidgets(queryClient: QueryClient, settings: DashboardSettings): void {
  prefetchDashboard(queryClient, settings, { missingOnly: true });
}
