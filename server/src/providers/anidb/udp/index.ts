import { AniDBUdpClient, type AniDBUdpClientOptions } from './client.js';
import type { UdpServerAddress } from './transport.js';

export { AniDBUdpClient, credentialsKey, DEFAULT_CLIENT_NAME, DEFAULT_CLIENT_VERSION, type AniDBUdpClientOptions } from './client.js';
export {
  decodeReply,
  encodeCommand,
  escapeValue,
  MalformedReplyError,
  parseReply,
  unescapeField,
  type UdpParams,
  type UdpReply,
} from './codec.js';
export * from './errors.js';
export { ANIDB_UDP_RATE_LIMIT, RateLimiter, timingsFromSettings, type RateLimitClock, type RateLimitTimings } from './rate-limiter.js';
export type { UdpServerAddress } from './transport.js';
export { UdpStatus, type UdpStatusListener } from './udp-status.js';
export { isLoopbackOverride, loopbackBanMs, loopbackTimings, NO_PACING } from './rate-limiter.js';

/**
 * Where AniDB UDP traffic goes: the settings, unless `SHOKO_ANIDB_UDP=host:port` points elsewhere. The override is
 * for tests and the offline demo, which talk to the loopback fake; it also switches the local port to an ephemeral
 * one so several servers on one machine do not fight over the fixed port (the fake does not care about ports).
 */
export function resolveUdpServer(settings: { UDPServerAddress: string; UDPServerPort: number; ClientPort: number }): UdpServerAddress {
  const override = process.env.SHOKO_ANIDB_UDP?.trim();
  if (!override) return { host: settings.UDPServerAddress, port: settings.UDPServerPort, clientPort: settings.ClientPort };
  const separator = override.lastIndexOf(':');
  const host = override.slice(0, separator).replace(/^\[(.*)\]$/, '$1');
  const port = Number(override.slice(separator + 1));
  if (separator <= 0 || !host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`SHOKO_ANIDB_UDP must look like host:port, got "${override}"`);
  }
  return { host, port, clientPort: 0 };
}

/**
 * Checks credentials by logging in and straight out again on a throwaway client; nothing is kept. False on wrong
 * credentials, silence, a ban or any other refusal (the reason is logged, never the password).
 */
export async function testAniDBLogin(
  options: Pick<AniDBUdpClientOptions, 'server' | 'logger' | 'timeoutMs' | 'limiter' | 'status' | 'clock' | 'banPauseMs'>,
  username: string,
  password: string,
): Promise<boolean> {
  // With the owner's limiter and status a test login is paced with everything else and honours bans and pauses; as a
  // probe it leaves the record of a refused login alone.
  const client = new AniDBUdpClient({ ...options, timeoutMs: options.timeoutMs ?? 10_000, probe: true });
  try {
    return await client.login(username, password);
  } catch (error) {
    options.logger.warn(`AniDB login test failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    await client.close();
  }
}
export {
  addFileToMyList,
  FILE_AMASK,
  FILE_FMASK,
  lookupFile,
  lookupGroup,
  parseFileFields,
  removeFileFromMyList,
  type AniDBFileInfo,
  type AniDBReleaseGroup,
} from './file-command.js';
export { updatedAnimePage, updatedAnimeSince, type AniDBUpdatedPage } from './updated-command.js';
