import type { QueryClient } from '@tanstack/react-query';
import { prefetchDashboard } from '@/api/dashboard';
import { fetchConsoleSettings } from '@/api/settings';
import { parseDashboardSettings } from '@/components/dashboard/settings';

/**
 * Asks for the visible widgets' data in one Dashboard/Summary call, by the stored dashboard settings (fetched once,
 * shared with the layout).
 */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  const settings = await fetchConsoleSettings(queryClient);
  prefetchDashboard(queryClient, parseDashboardSettings(settings.WebUI_Settings));
}
