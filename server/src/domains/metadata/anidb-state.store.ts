import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type AniDBProtocol = 'udp' | 'http';
/**
 * A row of `anidb_bans`: a protocol's ban, its back-off pause after failures (`udp-backoff`, `http-backoff`), or a
 * login AniDB refused (`udp-login`: no end, `banned_until` = `banned_at`; it lasts until the credentials change).
 */
export type AniDBPauseKind = AniDBProtocol | `${AniDBProtocol}-backoff` | 'udp-login';

export interface StoredBan {
  reason: string;
  since: number;
  until: number;
}

/** AniDB bans, back-off pauses and per-anime HTTP request times, kept across restarts. */
export class AniDBStateStore {
  constructor(private readonly db: Kysely<Database>) {}

  async bans(): Promise<Map<AniDBPauseKind, StoredBan>> {
    const rows = await this.db.selectFrom('anidb_bans').selectAll().execute();
    return new Map(
      rows.map((row) => [
        row.protocol as AniDBPauseKind,
        { reason: row.reason, since: Date.parse(row.banned_at), until: Date.parse(row.banned_until) },
      ]),
    );
  }

  async saveBan(protocol: AniDBPauseKind, ban: StoredBan): Promise<void> {
    const values = {
      reason: ban.reason,
      banned_at: new Date(ban.since).toISOString(),
      banned_until: new Date(ban.until).toISOString(),
    };
    await this.db
      .insertInto('anidb_bans')
      .values({ protocol, ...values })
      .onConflict((oc) => oc.column('protocol').doUpdateSet(values))
      .execute();
  }

  async clearBan(protocol: AniDBPauseKind): Promise<void> {
    await this.db.deleteFrom('anidb_bans').where('protocol', '=', protocol).execute();
  }

  /** When AniDB was last asked for this anime over HTTP (ms since the epoch), null if never. */
  async lastAnimeRequest(animeId: number): Promise<number | null> {
    const row = await this.db.selectFrom('anidb_anime_requests').select('requested_at').where('anime_id', '=', animeId).executeTakeFirst();
    return row ? Date.parse(row.requested_at) : null;
  }

  async recordAnimeRequest(animeId: number, at: number): Promise<void> {
    const requested_at = new Date(at).toISOString();
    await this.db
      .insertInto('anidb_anime_requests')
      .values({ anime_id: animeId, requested_at })
      .onConflict((oc) => oc.column('anime_id').doUpdateSet({ requested_at }))
      .execute();
  }
}
