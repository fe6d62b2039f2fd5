import type { Logger } from 'pino';
import { AniDBUdpClient, type UdpServerAddress } from './client.js';

export { AniDBBannedError, AniDBLoginError, AniDBTimeoutError, AniDBUdpClient, type UdpBanState, type UdpServerAddress } from './client.js';
export { decodeReply, encodeCommand, escapeValue, unescapeField, type UdpReply } from './codec.js';
export { RateLimiter, timingsFromSettings } from './rate-limiter.js';

/**
 * Where AniDB UDP traffic goes: the settings, unless `SHOKO_ANIDB_UDP=host:port` points elsewhere (tests and the
 * offline demo use it to reach the loopback fake).
 */
export function resolveUdpServer(settings: { UDPServerAddress: string; UDPServerPort: number; ClientPort: number }): UdpServerAddress {
  const override = process.env.SHOKO_ANIDB_UDP?.trim();
  if (override) {
    const separator = override.lastIndexOf(':');
    return { host: override.slice(0, separator), port: Number(override.slice(separator + 1)), clientPort: 0 };
  }
  return { host: settings.UDPServerAddress, port: settings.UDPServerPort, clientPort: settings.ClientPort };
}

/** Logs in with throwaway credentials and out again; nothing is stored. False on refusal, silence or ban. */
export async function testAniDBLogin(
  options: { server: UdpServerAddress; logger: Logger; timeoutMs?: number },
  username: string,
  password: string,
): Promise<boolean> {
  const client = new AniDBUdpClient({ server: options.server, logger: options.logger, timeoutMs: options.timeoutMs ?? 10_000 });
  try {
    return await client.login(username, password);
  } catch (error) {
    options.logger.warn(`AniDB login test failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    await client.close();
  }
}
