import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAll } from './invalidate';

describe('invalidateAll', () => {
  it('marks the queries under each key stale and leaves the others fresh', async () => {
    const queryClient = new QueryClient();
    for (const key of [
      ['groups', 1],
      ['groups', 2],
      ['filters', 'previews', 'a'],
      ['users', 'list'],
    ])
      queryClient.setQueryData(key, 'data');
    await invalidateAll(queryClient, [['groups'], ['filters', 'previews']]);
    const stale = (key: unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect([stale(['groups', 1]), stale(['groups', 2]), stale(['filters', 'previews', 'a']), stale(['users', 'list'])]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});
