import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleSettingsSource, fetchConsoleSettings, ownWebUISettingsQuery, saveConsoleSettings, settingsKeys } from './settings';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** A fake server: answers by `METHOD path` and records every request with its body. */
function serve(answers: Record<string, unknown>) {
  const calls: Array<{ key: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const key = `${init.method} ${new URL(url, 'http://console').pathname}`;
      calls.push({ key, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (!(key in answers)) return Promise.resolve(new Response('', { status: 403 }));
      return Promise.resolve(answers[key] === undefined ? new Response('', { status: 200 }) : json(answers[key]));
    }),
  );
  return calls;
}

const admin = { ID: 1, Username: 'admin', IsAdmin: true };
const family = { ID: 2, Username: 'family', IsAdmin: false };
const serverText = JSON.stringify({ collection: { view: 'poster' } });
const ownText = JSON.stringify({ collection: { view: 'list' } });

describe('console settings by role', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses the server settings for an admin, the account’s own for anyone else, and nothing before the account is known', () => {
    expect(consoleSettingsSource({ IsAdmin: true })).toBe('server');
    expect(consoleSettingsSource({ IsAdmin: false })).toBe('own');
    expect(consoleSettingsSource(undefined)).toBeNull();
  });

  it('takes server settings at hand before the account arrives as an admin’s, and the account over them once known', () => {
    expect(consoleSettingsSource(undefined, true)).toBe('server');
    expect(consoleSettingsSource({ IsAdmin: false }, true)).toBe('own');
  });

  it('reads an admin’s console settings from the server settings', async () => {
    const calls = serve({ 'GET /api/v3/User/Current': admin, 'GET /api/v3/Settings': { WebUI_Settings: serverText, AniDb: {} } });
    const document = await fetchConsoleSettings(new QueryClient());
    expect(document.WebUI_Settings).toBe(serverText);
    expect(calls.map((call) => call.key)).toEqual(['GET /api/v3/User/Current', 'GET /api/v3/Settings']);
  });

  it('reads a non-admin’s from its own console settings, never asking for the server settings', async () => {
    const calls = serve({
      'GET /api/v3/User/Current': family,
      'GET /api/v3/User/Current/WebUISettings': { WebUI_Settings: ownText, IsOwn: true },
    });
    expect(await fetchConsoleSettings(new QueryClient())).toEqual({ WebUI_Settings: ownText });
    expect(calls.map((call) => call.key)).not.toContain('GET /api/v3/Settings');
  });

  it('saves a non-admin’s change with PUT User/Current/WebUISettings and keeps the answer in the cache', async () => {
    const queryClient = new QueryClient();
    const calls = serve({ 'PUT /api/v3/User/Current/WebUISettings': { WebUI_Settings: ownText, IsOwn: true } });
    await saveConsoleSettings(queryClient, 'own', { original: { WebUI_Settings: serverText }, changed: { WebUI_Settings: ownText } });
    expect(calls).toEqual([{ key: 'PUT /api/v3/User/Current/WebUISettings', body: { WebUI_Settings: ownText } }]);
    expect(queryClient.getQueryData(ownWebUISettingsQuery().queryKey)).toEqual({ WebUI_Settings: ownText, IsOwn: true });
  });

  it('saves an admin’s change as a JSON Patch of the server settings, as before', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(settingsKeys.all, { WebUI_Settings: serverText });
    const calls = serve({ 'PATCH /api/v3/Settings': undefined });
    await saveConsoleSettings(queryClient, 'server', { original: { WebUI_Settings: serverText }, changed: { WebUI_Settings: ownText } });
    expect(calls).toEqual([{ key: 'PATCH /api/v3/Settings', body: [{ op: 'replace', path: '/WebUI_Settings', value: ownText }] }]);
    expect(queryClient.getQueryState(settingsKeys.all)?.isInvalidated).toBe(true);
  });
});
