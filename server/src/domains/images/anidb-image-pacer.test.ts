import { afterEach, describe, expect, it } from 'vitest';
import { AniDBImagePacer, AniDBImageServerError, AniDBImagesHeldError } from './anidb-image-pacer.js';

/** A clock whose sleeps move it forward at once. */
function fakeClock() {
  let now = 5_000_000;
  return { now: () => now, sleep: async (ms: number) => void (now += ms), advance: (ms: number) => void (now += ms) };
}

const pacers: AniDBImagePacer[] = [];
afterEach(() => pacers.splice(0).forEach((pacer) => pacer.dispose()));

function setUp(anidbHold: () => string | null = () => null) {
  const clock = fakeClock();
  const pacer = new AniDBImagePacer({ anidbHold, clock });
  pacers.push(pacer);
  return { clock, pacer };
}

describe('AniDB picture pacer', () => {
  it('downloads one picture at a time, each starting 4 s after the previous one ended', async () => {
    const { clock, pacer } = setUp();
    const spans: Array<[number, number]> = [];
    let running = 0;
    let most = 0;
    const picture = () =>
      pacer.download(async () => {
        running += 1;
        most = Math.max(most, running);
        const start = clock.now();
        await new Promise((resolve) => setTimeout(resolve, 5));
        clock.advance(700);
        spans.push([start, clock.now()]);
        running -= 1;
        return { status: 200 };
      });
    await Promise.all(Array.from({ length: 5 }, picture));
    expect(most).toBe(1);
    expect(spans.slice(1).map(([start], i) => start - spans[i][1])).toEqual([4_000, 4_000, 4_000, 4_000]);
    expect(pacer.estimateMs(10, 700)).toBe(4_000 + 9 * 4_700 + 700);
  });

  it('holds every picture while AniDB is banned or backing off, without asking the image server', async () => {
    let anidb: string | null = 'AniDB HTTP ban: banned';
    const { pacer } = setUp(() => anidb);
    let asked = 0;
    const picture = () => pacer.download(async () => ({ status: 200, asked: ++asked }));
    expect(pacer.hold()).toMatch(/AniDB HTTP ban/);
    await expect(picture()).rejects.toBeInstanceOf(AniDBImagesHeldError);
    anidb = 'AniDB is overloaded';
    await expect(picture()).rejects.toThrow(/overloaded; AniDB pictures wait/);
    expect(asked).toBe(0);
    anidb = null;
    expect(pacer.hold()).toBeNull();
    await expect(picture()).resolves.toMatchObject({ status: 200 });
    expect(asked).toBe(1);
  });

  it('backs off after trouble, for longer each time, holding the pictures queued behind', async () => {
    const { clock, pacer } = setUp();
    let asked = 0;
    let status = 503;
    const picture = () =>
      pacer.download(async () => {
        asked += 1;
        return { status };
      });
    const first = await Promise.allSettled([picture(), picture(), picture()]);
    expect(first.map((result) => (result as PromiseRejectedResult).reason?.constructor)).toEqual([
      AniDBImageServerError,
      AniDBImagesHeldError,
      AniDBImagesHeldError,
    ]);
    expect(asked).toBe(1);
    expect(pacer.hold()).toMatch(/HTTP 503; AniDB pictures pause for 30 s/);
    clock.advance(30_000);
    expect(pacer.hold()).toBeNull();
    // A network error counts as trouble too: the next pause is longer.
    await expect(
      pacer.download(async () => {
        asked += 1;
        throw new Error('socket hang up');
      }),
    ).rejects.toBeInstanceOf(AniDBImageServerError);
    expect(pacer.hold()).toMatch(/did not answer \(socket hang up\); AniDB pictures pause for 60 s/);
    clock.advance(60_000);
    // A missing picture (404) is not trouble: it ends the streak.
    status = 404;
    await expect(picture()).resolves.toEqual({ status: 404 });
    status = 500;
    await expect(picture()).rejects.toBeInstanceOf(AniDBImageServerError);
    expect(pacer.hold()).toMatch(/pause for 30 s/);
  });
});
