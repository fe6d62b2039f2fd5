import type { QueryClient } from '@tanstack/react-query';
import { prefetchDashboard } from '@/api/dashboard';
import { fetchConsoleSettings, settingsQuery } from '@/api/settings';
import { parseDashboardSettings } from '@/components/dashboard/settings';

/**
 * Asks for the visible widgets' data in one Dashboard/Summary call, by the stored dashboard settings (fetched once,
 * shared with the layout). The server settings are asked for beside the account instead of after it, as start-up does
 * (an admin's console settings are there; anyone else's request is refused and their own are read instead).
 */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  void queryClient.prefetchQuery(settingsQuery());
  const settings = await fetchConsoleSettings(queryClient);
  prefetchDashboard(queryClient, parseDashboardSettings(settings.WebUI_Settings));
}
