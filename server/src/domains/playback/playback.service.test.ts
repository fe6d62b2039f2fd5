import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PlaybackService } from './playback.service.js';
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
      settings: () => ({ maxTranscodes: 2, languageOrder: [] }),
      workDir,
      logger: pino({ level: 'silent' }),
    });
    await service.start();
    expect(fs.readdirSync(workDir)).toEqual([]);
    await service.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
});
