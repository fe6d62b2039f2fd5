import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { askedBeforeConnection, trackFetchStarts } from './fetchStarts';

const folders = ['import-folders'] as const;

describe('what the live feed asks again when it connects', () => {
  let client: QueryClient;
  afterEach(() => client.clear());

  const setUp = () => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    trackFetchStarts(client.getQueryCache());
    const calls = { before: 0, after: 0 };
    return { calls, query: (name: 'before' | 'after') => ({ queryKey: [...folders, name], queryFn: async () => ++calls[name] }) };
  };

  it('tells an answer asked for before the connection from one asked for after it', async () => {
    const { calls, query } = setUp();
    await client.fetchQuery(query('before'));
    const connectedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2));
    await client.fetchQuery(query('after'));
    const before = client.getQueryCache().find({ queryKey: [...folders, 'before'] })!;
    const after = client.getQueryCache().find({ queryKey: [...folders, 'after'] })!;
    expect(askedBeforeConnection(before, connectedAt)).toBe(true);
    expect(askedBeforeConnection(after, connectedAt)).toBe(false);
    expect(calls).toEqual({ before: 1, after: 1 });
  });

  it('counts a request still on its way when the connection came as asked before it', async () => {
    const { query } = setUp();
    let answer: (value: number) => void = () => undefined;
    const pending = client.fetchQuery({ queryKey: [...folders, 'before'], queryFn: () => new Promise<number>((r) => (answer = r)) });
    const connectedAt = performance.now();
    const inFlight = client.getQueryCache().find({ queryKey: [...folders, 'before'] })!;
    expect(askedBeforeConnection(inFlight, connectedAt)).toBe(true);
    answer(1);
    await pending;
    void query;
  });

  it('treats an answer put in the cache without a request as possibly stale, and leaves a query never asked alone', () => {
    const { query } = setUp();
    client.setQueryData([...folders, 'seeded'], 1);
    client.getQueryCache().build(client, query('after'));
    const connectedAt = performance.now();
    const seeded = client.getQueryCache().find({ queryKey: [...folders, 'seeded'] })!;
    const never = client.getQueryCache().find({ queryKey: [...folders, 'after'] })!;
    expect(askedBeforeConnection(seeded, connectedAt)).toBe(true);
    expect(askedBeforeConnection(never, connectedAt)).toBe(false);
  });
});
