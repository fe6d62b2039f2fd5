import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { preferredLanguages } from './playback.domain.js';
import { PlaybackTokens } from './playback-tokens.js';

describe('playback tokens', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tokens-'));
  const tokens = PlaybackTokens.open(home);
  const grant = { userId: 3, fileId: 42, sessionId: 'abc', expires: Date.now() + 60_000 };

  it('round-trips a grant and keeps the secret in the data folder', () => {
    const token = tokens.sign(grant);
    expect(tokens.verify(token)).toEqual({ ...grant, expires: Math.floor(grant.expires / 1000) * 1000 });
    // The same secret after a restart.
    expect(PlaybackTokens.open(home).verify(token)).not.toBeNull();
    expect(fs.statSync(path.join(home, 'playback-token.key')).mode & 0o077).toBe(0);
  });

  it('refuses expired, forged and malformed tokens', () => {
    expect(tokens.verify(tokens.sign({ ...grant, expires: Date.now() - 1 }))).toBeNull();
    const [payload, signature] = tokens.sign(grant).split('.');
    const other = Buffer.from(JSON.stringify([1, 42, 'abc', Math.floor(grant.expires / 1000)])).toString('base64url');
    expect(tokens.verify(`${other}.${signature}`)).toBeNull();
    expect(tokens.verify(`${payload}.${signature}x`)).toBeNull();
    expect(tokens.verify(payload)).toBeNull();
    expect(tokens.verify(undefined)).toBeNull();
    expect(new PlaybackTokens(Buffer.alloc(32, 7)).verify(tokens.sign(grant))).toBeNull();
  });
});

describe('preferred languages', () => {
  it('maps the title language order to ISO 639-2, romaji as Japanese, skipping x-main and unknown codes', () => {
    expect(preferredLanguages(['x-jat', 'en', 'x-main', 'ja', 'zz'])).toEqual(['jpn', 'eng']);
    expect(preferredLanguages(['x-main'])).toEqual([]);
  });
});
