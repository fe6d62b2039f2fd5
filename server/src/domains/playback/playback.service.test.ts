import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AccountCache } from '../../db/account-cache.js';
import { GRANT_RECHECK_MS, PlaybackService } from './playback.service.js';
import type { PlaybackStore } from './playback.store.js';
import { PlaybackTokens } from './playback-tokens.js';

describe('playback service start-up', () => {
  it('removes the session folders a previous run left in the data folder’s temp area', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-start-'));
    const workDir = path.join(home, 'temp', 'playback');
    fs.mkdirSync(path.join(workDir, 'old-session'), { recursive: true });
    fs.writeFileSync(path.join(workDir, 'old-session', 'u3.m4s'), 'left behind');
    const service = new PlaybackService({
      store: {} as PlaybackStore,
      tokens: PlaybackTokens.open(home),
      tools: null,
      locate: () => Promise.reject(new Error('unused')),
      animeAllowed: () => Promise.resolve(true),
      settings: () => ({ maxTranscodes: 2, languageOrder: [], transcodePreset: 'Automatic' }),
      workDir,
      logger: pino({ level: 'silent' }),
    });
    await service.start();
    expect(fs.readdirSync(workDir)).toEqual([]);
    await service.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
});

describe('playback tokens at use', () => {
  it('asks again whether the user exists and sees the file only after an account write or half a minute', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-grant-'));
    const accounts = new AccountCache();
    const users = new Set([7]);
    let allowed = true;
    let lookups = 0;
    const store = {
      accounts,
      userExists: (id: number) => accounts.read(`user-exists:${id}`, async () => (lookups++, users.has(id))),
      fileExists: () => Promise.resolve(true),
      links: () => Promise.resolve([{ episodeId: 1, seriesId: 1, animeId: 9 }]),
    } as unknown as PlaybackStore;
    const tokens = PlaybackTokens.open(home);
    const service = new PlaybackService({
      store,
      tokens,
      tools: null,
      locate: () => Promise.reject(new Error('unused')),
      animeAllowed: () => Promise.resolve(allowed),
      settings: () => ({ maxTranscodes: 2, languageOrder: [], transcodePreset: 'Automatic' }),
      workDir: path.join(home, 'temp', 'playback'),
      logger: pino({ level: 'silent' }),
    });
    const now = Date.now();
    const token = tokens.sign({ userId: 7, fileId: 3, sessionId: null, expires: now + 3_600_000 });
    expect(await service.streamUser(token, 3, now)).toBe(7);
    expect(await service.streamUser(token, 3, now + 1_000)).toBe(7);
    expect(lookups).toBe(1);

    // The user is deleted: the account write makes the very next use ask again.
    await accounts.written(async () => users.delete(7));
    expect(await service.streamUser(token, 3, now + 2_000)).toBeNull();
    expect(lookups).toBe(2);
    await accounts.written(async () => users.add(7));
    expect(await service.streamUser(token, 3, now + 3_000)).toBe(7);

    // The anime's tags changed (no account write): seen at the first check after the cache's half minute.
    allowed = false;
    expect(await service.streamUser(token, 3, now + 4_000)).toBe(7);
    expect(await service.streamUser(token, 3, now + 3_000 + GRANT_RECHECK_MS)).toBeNull();
    fs.rmSync(home, { recursive: true, force: true });
  });
});
