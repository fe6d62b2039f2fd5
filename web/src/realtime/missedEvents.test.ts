import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trackFetchStarts } from './fetchStarts';
import { dataRevision, refreshMissedEvents } from './missedEvents';

// Answers as the API client gives them: each remembers the event revision its request arrived at.
const revisions = new WeakMap<object, number>();
vi.mock('@/api/client', () => ({
  answerRevision: (data: unknown) => (data && typeof data === 'object' ? (revisions.get(data) ?? null) : null),
}));
const answer = <T extends object>(value: T, revision: number): T => (revisions.set(value, revision), value);

const files = ['files'] as const;
const folders = ['import-folders'] as const;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('answers the live feed may have missed events for', () => {
  let client: QueryClient;
  let calls: Record<string, number>;
  let observers: Array<() => void>;
  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    trackFetchStarts(client.getQueryCache());
    calls = {};
    observers = [];
  });
  afterEach(() => {
    observers.forEach((stop) => stop());
    client.clear();
  });

  /** A query observed as on a page (an invalidated one refetches at once), answering at `revision()`. */
  const observe = (key: readonly unknown[], revision: () => number, respond: () => Promise<void> = async () => undefined) => {
    const name = key.join('/');
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: async () => {
        const read = revision();
        calls[name] = (calls[name] ?? 0) + 1;
        await respond();
        return answer({ List: [calls[name]] }, read);
      },
    });
    observers.push(observer.subscribe(() => undefined));
    return () => calls[name] ?? 0;
  };

  it('asks again for what was read before an event the connection came after, and only that', async () => {
    let server = 10;
    const oldList = observe([...files, 'old'], () => server);
    await settle();
    server = 12; // two events raised, never heard
    const newList = observe([...files, 'new'], () => server);
    const folderList = observe([...folders], () => server);
    const otherKey = observe(['series'], () => 10);
    await settle();
    expect([oldList(), newList(), folderList(), otherKey()]).toEqual([1, 1, 1, 1]);

    refreshMissedEvents(client, [files, folders], 12);
    await settle();
    expect([oldList(), newList(), folderList(), otherKey()]).toEqual([2, 1, 1, 1]);
  });

  it('judges an answer still on its way when it arrives', async () => {
    let release: () => void = () => undefined;
    const gate = () => new Promise<void>((resolve) => (release = resolve));
    const server = { revision: 5 };
    const list = observe([...files, 'slow'], () => server.revision, gate);
    await settle();
    server.revision = 6;
    const stop = refreshMissedEvents(client, [files], 6);
    expect(list()).toBe(1);
    release();
    await settle();
    await settle();
    // Read at 5 (the request arrived before the event): asked again, this time read at 6, and left alone.
    expect(list()).toBe(2);
    release();
    await settle();
    expect(list()).toBe(2);
    stop();
  });

  it('leaves alone answers read at the connection revision or later, and asks again for one of unknown age', async () => {
    const current = observe([...files, 'current'], () => 7);
    client.setQueryData([...files, 'seeded'], { List: [] });
    await settle();
    refreshMissedEvents(client, [files], 7);
    await settle();
    expect(current()).toBe(1);
    expect(client.getQueryState([...files, 'seeded'])?.isInvalidated).toBe(true);
  });

  it('reads the revision of a list loaded page by page as its oldest page', () => {
    expect(dataRevision(answer({ List: [] }, 4))).toBe(4);
    expect(dataRevision({ pages: [answer({}, 9), answer({}, 3)], pageParams: [1, 2] })).toBe(3);
    expect(dataRevision({ pages: [answer({}, 9), {}], pageParams: [1, 2] })).toBeNull();
    expect(dataRevision(undefined)).toBeNull();
  });
});
