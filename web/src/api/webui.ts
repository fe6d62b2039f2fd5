import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComponentVersion, ThemeRefreshQuery, WebUITheme, WebUIUpdateQuery, WebUIVersionQuery } from '@shoko-ts/contract';
import { serverUrl } from '@/lib/basePath';
import { getApiKey } from '@/lib/session';
import { api, ApiError, buildUrl } from './client';

export function useForceStableUpdate() {
  return useMutation({
    mutationFn: () => api.post<void>('WebUI/Update', undefined, { query: { channel: 'Stable' } satisfies WebUIUpdateQuery }),
    meta: { inlineErrors: true },
  });
}

/**
 * How long after it is first wanted the update check waits: the server asks GitHub, which takes up to a few hundred ms
 * when the internet is slow or absent, and a page's own requests should not share the connections and the server with it.
 */
export const UPDATE_CHECK_DELAY_MS = 3_000;

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Latest console release on a channel; quietly empty when the server cannot tell (offline, not implemented). */
export function useLatestWebUIVersion(channel: string, enabled: boolean) {
  return useQuery({
    queryKey: ['webui', 'latest', { channel }],
    queryFn: async ({ signal }) => {
      await pause(UPDATE_CHECK_DELAY_MS, signal);
      try {
        return await api.get<ComponentVersion>('WebUI/LatestVersion', { query: { channel } satisfies WebUIVersionQuery, signal });
      } catch {
        return null;
      }
    },
    enabled,
    staleTime: 60 * 60_000,
    retry: false,
  });
}

export const webuiKeys = {
  themes: ['webui', 'themes'] as const,
  updateCheck: (channel: string) => ['webui', 'update-check', { channel }] as const,
};

/** Installed console themes, read fresh from the server's themes folder. */
export function useThemes() {
  return useQuery({
    queryKey: webuiKeys.themes,
    queryFn: ({ signal }) => api.get<WebUITheme[]>('WebUI/Theme', { query: { forceRefresh: true } satisfies ThemeRefreshQuery, signal }),
    staleTime: 60_000,
  });
}

/** `POST WebUI/Theme/AddFromFile` as multipart form data (the JSON client cannot send files). */
async function uploadThemeFile(file: File): Promise<WebUITheme> {
  const form = new FormData();
  form.append('file', file, file.name);
  const url = buildUrl('WebUI/Theme/AddFromFile');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { apikey: getApiKey(), accept: 'application/json, text/plain, */*' },
      body: form,
    });
  } catch {
    throw new ApiError(0, 'POST', url, undefined);
  }
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) throw new ApiError(response.status, 'POST', url, body);
  return body as WebUITheme;
}

let stylesheetRevision = 0;

/** Makes the browser fetch the theme stylesheet again (the extra query only busts caches). */
export function reloadThemeStylesheet() {
  const link = document.getElementById('theme-css') as HTMLLinkElement | null;
  if (!link) return;
  stylesheetRevision += 1;
  link.href = serverUrl(`/api/v3/WebUI/Theme.css?updateCount=${stylesheetRevision}`);
}

/** Uploads theme files one by one; every file's outcome is reported, so one bad file does not hide the others. */
export function useUploadThemes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]) => {
      const results = await Promise.allSettled(files.map((file) => uploadThemeFile(file)));
      return results.map((result, index) => ({
        file: files[index]!.name,
        theme: result.status === 'fulfilled' ? result.value : null,
        error: result.status === 'rejected' ? (result.reason as Error) : null,
      }));
    },
    onSuccess: async () => {
      reloadThemeStylesheet();
      await queryClient.invalidateQueries({ queryKey: webuiKeys.themes });
    },
    meta: { inlineErrors: true },
  });
}

/** The Refresh button's check: asks GitHub (through the server) now, and keeps the failure to show it. */
export function useWebUIUpdateCheck(channel: string) {
  return useQuery({
    queryKey: webuiKeys.updateCheck(channel),
    queryFn: ({ signal }) =>
      api.get<ComponentVersion>('WebUI/LatestVersion', { query: { channel, force: true } satisfies WebUIVersionQuery, signal }),
    enabled: false,
    retry: false,
  });
}

/** Installs the latest console of a channel; the page reloads afterwards to run it. */
export function useUpdateWebUI() {
  return useMutation({
    mutationFn: (channel: string) => api.post<void>('WebUI/Update', undefined, { query: { channel } satisfies WebUIUpdateQuery }),
    meta: { inlineErrors: true },
  });
}
