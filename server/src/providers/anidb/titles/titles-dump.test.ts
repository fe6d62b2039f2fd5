import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBTitles, titlesDumpXml } from '../../../../../fakes/src/anidb-titles/index.js';
import { AniDBTitlesDump, parseTitlesDump } from './titles-dump.js';

const logger = pino({ level: 'silent' });
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('AniDB titles dump', () => {
  it('parses every title with its type and language, skipping broken entries', () => {
    const xml = titlesDumpXml([
      {
        id: 1,
        titles: [
          { type: 'main', language: 'x-jat', value: 'Hoshi & Tsuki' },
          { type: 'syn', language: 'en', value: 'Star and Moon' },
        ],
      },
      { id: 2, titles: [] },
    ]).replace('<anime aid="2">', '<anime aid="x">');
    expect(parseTitlesDump(xml)).toEqual([
      {
        id: 1,
        titles: [
          { type: 'main', language: 'x-jat', value: 'Hoshi & Tsuki' },
          { type: 'syn', language: 'en', value: 'Star and Moon' },
        ],
      },
    ]);
  });

  it('downloads at most once a day, keeps a stale copy when AniDB is away, and ranks exact matches first', async () => {
    const fake = await startFakeAniDBTitles({
      anime: [
        { id: 10, titles: [{ type: 'main', language: 'x-jat', value: 'Umi no Oto' }] },
        { id: 11, titles: [{ type: 'main', language: 'x-jat', value: 'Umi' }] },
        { id: 12, titles: [{ type: 'official', language: 'en', value: 'Sounds of the Umi Sea' }] },
      ],
    });
    closers.push(() => fake.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-titles-'));
    closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let now = Date.parse('2026-01-01T00:00:00Z');
    const dump = new AniDBTitlesDump({ url: fake.url, cacheDir: dir, logger, now: () => now });

    await dump.ready();
    expect(dump.search('umi', { fuzzy: false }).map((m) => m.anime.id)).toEqual([11, 10, 12]);
    expect(dump.byId(12)?.titles[0].value).toBe('Sounds of the Umi Sea');
    now += 23 * 60 * 60_000;
    await dump.ready();
    expect(fake.downloads).toBe(1);

    // A day later the file is old (by its own clock, too): AniDB is asked again; when it fails the copy stays in use.
    fs.utimesSync(dump.cacheFile, new Date(now - 25 * 60 * 60_000), new Date(now - 25 * 60 * 60_000));
    now += 2 * 60 * 60_000;
    fake.unavailable = true;
    await dump.ready();
    expect(dump.byId(10)).not.toBeNull();
    fake.unavailable = false;
    // The failed attempt counts: not even a restarted server asks again before the day is over.
    const fresh = new AniDBTitlesDump({ url: fake.url, cacheDir: dir, logger, now: () => now });
    await fresh.ready();
    expect(fake.downloads).toBe(1);
    now += 25 * 60 * 60_000;
    const later = new AniDBTitlesDump({ url: fake.url, cacheDir: dir, logger, now: () => now });
    await later.ready();
    expect(fake.downloads).toBe(2);
  });

  it('does not retry a failed first download on every search, only a day later', async () => {
    const fake = await startFakeAniDBTitles({ anime: [{ id: 20, titles: [{ type: 'main', language: 'x-jat', value: 'Kaze' }] }] });
    closers.push(() => fake.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-titles-'));
    closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let now = Date.parse('2026-01-01T00:00:00Z');
    const dump = new AniDBTitlesDump({ url: fake.url, cacheDir: dir, logger, now: () => now });
    fake.unavailable = true;
    await dump.ready();
    expect(dump.byId(20)).toBeNull();
    fake.unavailable = false;
    for (let i = 0; i < 3; i++) await dump.ready();
    expect(fake.downloads).toBe(0);
    now += 23 * 60 * 60_000;
    await dump.ready();
    expect(fake.downloads).toBe(0);
    now += 2 * 60 * 60_000;
    await dump.ready();
    expect(fake.downloads).toBe(1);
    expect(dump.byId(20)?.titles[0].value).toBe('Kaze');
  });
});
