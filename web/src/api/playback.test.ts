import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepPlaybackSessionAlive } from './playback';

describe('keepPlaybackSessionAlive', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts to the session’s KeepAlive with the token of its playlist, without the API key', () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('window', {
      location: { href: 'http://server:8111/webui/player/7', origin: 'http://server:8111', pathname: '/webui/player/7' },
    });
    vi.stubGlobal('fetch', fetch);
    keepPlaybackSessionAlive({ SessionID: 'abc', PlaylistUrl: '/api/v3/Playback/Session/abc/index.m3u8?token=t0k%2Ben' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/v3\/Playback\/Session\/abc\/KeepAlive\?token=t0k%2Ben$/);
    expect(init).toEqual({ method: 'POST' });
  });

  it('sends nothing for a playlist without a token', () => {
    const fetch = vi.fn();
    vi.stubGlobal('window', { location: { href: 'http://server:8111/webui/player/7' } });
    vi.stubGlobal('fetch', fetch);
    keepPlaybackSessionAlive({ SessionID: 'abc', PlaylistUrl: '/api/v3/Playback/Session/abc/index.m3u8' });
    expect(fetch).not.toHaveBeenCalled();
  });
});
