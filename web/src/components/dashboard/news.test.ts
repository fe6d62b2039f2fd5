import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { isNewPost, isOnline, newsPosts, postUrl } from './news';

const post = (date: string) => ({
  filename: 'server-9-9-0-released.mdx',
  meta: { title: 'Server 9.9.0 Released', date, quick: 'A made-up release.' },
});

describe('Shoko News feed', () => {
  it('takes the posts of a reply and treats anything else as no posts', () => {
    expect(newsPosts({ results: [post('2024-06-30'), { filename: 1 }], hasMore: false })).toEqual([post('2024-06-30')]);
    expect(newsPosts({ hasMore: false })).toEqual([]);
    expect(newsPosts(null)).toEqual([]);
  });

  it('links a post to its blog page and flags it New! for 14 days', () => {
    expect(postUrl(post('2024-06-30'))).toBe('https://shokoanime.com/blog/server-9-9-0-released');
    const now = dayjs('2024-07-10');
    expect(isNewPost(post('2024-06-30'), now)).toBe(true);
    expect(isNewPost(post('2024-06-20'), now)).toBe(false);
  });

  it('asks for the feed only with internet access', () => {
    expect(isOnline('Internet')).toBe(true);
    expect(isOnline('PartialInternet')).toBe(true);
    expect(isOnline('LocalOnly')).toBe(false);
    expect(isOnline(undefined)).toBe(false);
  });
});
