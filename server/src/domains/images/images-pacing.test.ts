import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobContext, JobDefinition } from '../../jobs/job.js';
import type { QueueHold, QueueService } from '../../jobs/queue.service.js';
import { TmdbRateLimiter } from '../../providers/tmdb/rate-limiter.js';
import type { SettingsService } from '../settings/index.js';
import { AniDBImagePacer, AniDBImagesHeldError } from './anidb-image-pacer.js';
import type { ImageStore } from './image-store.js';
import { ImagesService } from './images.service.js';
import type { ImagesStore } from './images.store.js';

const context = { logger: pino({ level: 'silent' }), signal: new AbortController().signal, progress: () => undefined } as JobContext;

/** A TMDB limiter that counts the requests it let start. */
class CountingTmdbLimiter extends TmdbRateLimiter {
  acquired = 0;
  override async acquire(): Promise<() => void> {
    this.acquired += 1;
    return super.acquire();
  }
}

const lastPart = (url: string) => url.split('/').pop();

const pacers: AniDBImagePacer[] = [];
afterEach(() => pacers.splice(0).forEach((pacer) => pacer.dispose()));

/** The images service with a queue that only records what is registered, and a remote that answers every URL. */
function setUp(anidbHold: () => string | null) {
  const jobs = new Map<string, JobDefinition<never>>();
  const holds: QueueHold[] = [];
  const queue = {
    register: (definition: JobDefinition<never>) => void jobs.set(definition.kind, definition),
    addHold: (hold: QueueHold) => void holds.push(hold),
    recheckHolds: () => undefined,
  } as unknown as QueueService;
  const saved: string[] = [];
  const store = {
    has: () => false,
    save: async (source: string, type: string, id: number) => void saved.push(`${source}/${type}/${id}`),
  } as unknown as ImageStore;
  const fetched: string[] = [];
  const fetchStub = (async (url: string) => {
    fetched.push(url);
    return new Response(new Uint8Array([0xff, 0xd8, 0xff]), { status: 200 });
  }) as typeof fetch;
  const anidbImages = new AniDBImagePacer({ anidbHold, gapMs: 0 });
  pacers.push(anidbImages);
  const tmdbImages = new CountingTmdbLimiter();
  new ImagesService({
    records: {} as ImagesStore,
    store,
    queue,
    settings: {} as SettingsService,
    logger: pino({ level: 'silent' }),
    fetch: fetchStub,
    anidbImages,
    tmdbImages,
  });
  const run = (kind: string, payload: object) => (jobs.get(kind)!.run as (p: object, ctx: JobContext) => Promise<void>)(payload, context);
  return { holds, run, saved, fetched, tmdbImages };
}

describe('image downloads: AniDB pictures on their own pacer, TMDB images on TMDB limits', () => {
  it('holds AniDB pictures while AniDB is banned or backing off, without asking its image server', async () => {
    let hold: string | null = 'AniDB HTTP ban: banned';
    const { holds, run, saved, fetched, tmdbImages } = setUp(() => hold);
    // The queue holds the AniDB picture jobs only, by the pacer's reason.
    expect(holds.map((h) => [h.name, h.kinds])).toEqual([['AniDBImageFilter', ['DownloadAniDBImageJob']]]);
    expect(holds[0]!.reason()).toMatch(/AniDB HTTP ban/);
    const picture = { source: 'AniDB', type: 'Poster', id: 7, remote: '701.jpg' };
    await expect(run('DownloadAniDBImageJob', picture)).rejects.toBeInstanceOf(AniDBImagesHeldError);
    expect(fetched).toEqual([]);
    hold = null;
    expect(holds[0]!.reason()).toBeNull();
    await run('DownloadAniDBImageJob', picture);
    expect(fetched.map(lastPart)).toEqual(['701.jpg']);
    expect(saved).toEqual(['AniDB/Poster/7']);
    // AniDB pictures do not take TMDB's request budget.
    expect(tmdbImages.acquired).toBe(0);
  });

  it("downloads TMDB images through TMDB's limiter, whatever holds AniDB", async () => {
    const { run, saved, fetched, tmdbImages } = setUp(() => 'AniDB HTTP ban: banned');
    await run('DownloadImageJob', { source: 'TMDB', type: 'Backdrop', id: 11, remote: '/backdrop.jpg' });
    await run('DownloadImageJob', { source: 'TMDB', type: 'Poster', id: 12, remote: '/poster.jpg' });
    expect(tmdbImages.acquired).toBe(2);
    expect(fetched.map(lastPart)).toEqual(['backdrop.jpg', 'poster.jpg']);
    expect(saved).toEqual(['TMDB/Backdrop/11', 'TMDB/Poster/12']);
  });
});
