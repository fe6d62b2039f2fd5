import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Signed, expiring playback tokens: the authority of a user over one file (and, for a session's media, one session)
 * carried in a URL's `token` query, because a `<video>` element or hls.js cannot always send the `apikey` header. The
 * HMAC secret lives in the data folder, so tokens survive a restart and cannot be forged without it.
 */
export interface PlaybackGrant {
  userId: number;
  fileId: number;
  /** Set for a session's playlist, segments and Stop. */
  sessionId: string | null;
  /** Milliseconds since the epoch. */
  expires: number;
}

const SECRET_FILE = 'playback-token.key';

export class PlaybackTokens {
  constructor(private readonly secret: Buffer) {}

  /** The data folder's secret, made on first use (readable by the server's user only). */
  static open(home: string): PlaybackTokens {
    const file = path.join(home, SECRET_FILE);
    try {
      const stored = fs.readFileSync(file);
      if (stored.length >= 32) return new PlaybackTokens(stored);
    } catch {
      // made below
    }
    const secret = randomBytes(32);
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return new PlaybackTokens(secret);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest();
  }

  sign(grant: PlaybackGrant): string {
    const payload = Buffer.from(JSON.stringify([grant.userId, grant.fileId, grant.sessionId, Math.floor(grant.expires / 1000)])).toString(
      'base64url',
    );
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The grant a token carries, or null when it is malformed, forged or expired. */
  verify(token: string | undefined, now = Date.now()): PlaybackGrant | null {
    if (!token) return null;
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = this.mac(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const [userId, fileId, sessionId, expiresSeconds] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (!Number.isInteger(userId) || !Number.isInteger(fileId) || typeof expiresSeconds !== 'number') return null;
      if (sessionId !== null && typeof sessionId !== 'string') return null;
      const expires = expiresSeconds * 1000;
      if (expires <= now) return null;
      return { userId: userId as number, fileId: fileId as number, sessionId, expires };
    } catch {
      return null;
    }
  }
}
