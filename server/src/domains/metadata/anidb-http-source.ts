import type { Logger } from 'pino';
import type { ServerConfig } from '../../config.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AniDBConnection } from './anidb-connection.js';
import type { AnimeSource } from './anime-import.js';

/** Anime metadata from AniDB's HTTP API (with its disk cache), mapped to what the pipeline stores. */
export function anidbHttpSource(_config: ServerConfig, _settings: SettingsService, _anidb: AniDBConnection, logger: Logger): AnimeSource {
  return {
    async getAnime(animeId) {
      logger.warn(`Cannot fetch AniDB anime ${animeId}: the AniDB HTTP client is not wired in yet`);
      throw new Error('The AniDB HTTP client is not available yet');
    },
  };
}
