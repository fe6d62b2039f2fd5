import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from '@/api/client';
import { takeEarlyResponse, type EarlyRequest } from './earlyRequests';

const BASE = 'http://console.test/webui/';
const early = (apikey: string, body: unknown): EarlyRequest => ({
  apikey,
  response: Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })),
});

function startUpAsked(requests: Record<string, EarlyRequest>) {
  vi.stubGlobal('document', { baseURI: BASE });
  vi.stubGlobal('window', { __shokoEarly: requests });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('takeEarlyResponse', () => {
  it("hands over the start-up script's answer once, by address and key", async () => {
    startUpAsked({ 'http://console.test/api/v3/Init/Status': early('key-1', { State: 'Started' }) });
    expect(takeEarlyResponse('/api/v3/Init/Status', 'key-2')).toBeNull();
    // A mismatched key used it up: the next call asks the server.
    expect(takeEarlyResponse('/api/v3/Init/Status', 'key-1')).toBeNull();

    startUpAsked({ 'http://console.test/api/v3/Init/Status': early('key-1', { State: 'Started' }) });
    expect(takeEarlyResponse('/api/v3/Init/Version', 'key-1')).toBeNull();
    const response = takeEarlyResponse('/api/v3/Init/Status', 'key-1');
    expect(await (await response!).json()).toEqual({ State: 'Started' });
    expect(takeEarlyResponse('/api/v3/Init/Status', 'key-1')).toBeNull();
  });

  it('leaves answers nothing asked for during the start-up to the server', () => {
    startUpAsked({ 'http://console.test/api/v3/Init/Status': early('', { State: 'Started' }) });
    vi.spyOn(performance, 'now').mockReturnValue(60_000);
    expect(takeEarlyResponse('/api/v3/Init/Status', '')).toBeNull();
  });

  it('is empty without a start-up script (unit tests, the dev server)', () => {
    expect(takeEarlyResponse('/api/v3/Init/Status', '')).toBeNull();
  });
});

describe('request with early answers', () => {
  it('reads a GET from the early answer and asks the server for the next one', async () => {
    startUpAsked({ 'http://console.test/api/v3/Init/Version': early('', { Server: { Version: 'early' } }) });
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ Server: { Version: 'fetched' } }), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await request('GET', 'Init/Version')).toEqual({ Server: { Version: 'early' } });
    expect(fetch).not.toHaveBeenCalled();
    expect(await request('GET', 'Init/Version')).toEqual({ Server: { Version: 'fetched' } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks the server when the early request failed', async () => {
    startUpAsked({ 'http://console.test/api/v3/Init/Status': { apikey: '', response: Promise.reject(new TypeError('network')) } });
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ State: 'Started' }), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await request('GET', 'Init/Status')).toEqual({ State: 'Started' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
