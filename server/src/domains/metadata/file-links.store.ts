import type { Kysely } from 'kysely';
import type { AniDBFilesTable, Database, FileEpisodeLinksTable } from '../../db/schema.js';
import type { AniDBFileInfo, AniDBReleaseGroup } from '../../providers/anidb/udp/index.js';

export type FileLinkRow = Omit<FileEpisodeLinksTable, 'id'> & { id: number };
export type AniDBFileRow = AniDBFilesTable;

/** SQL of what AniDB said about file contents and the links from contents to AniDB episodes. */
export class FileLinksStore {
  constructor(private readonly db: Kysely<Database>) {}

  async anidbFile(ed2k: string, size: number): Promise<AniDBFileRow | null> {
    return (
      (await this.db.selectFrom('anidb_files').selectAll().where('ed2k', '=', ed2k).where('size', '=', size).executeTakeFirst()) ?? null
    );
  }

  links(ed2k: string, size: number): Promise<FileLinkRow[]> {
    return this.db
      .selectFrom('file_episode_links')
      .selectAll()
      .where('ed2k', '=', ed2k)
      .where('size', '=', size)
      .orderBy('ordering')
      .execute();
  }

  /** Contents (ed2k:size) that have at least one link, among the given ones. */
  async linkedContents(contents: Array<{ ed2k: string; size: number }>): Promise<Set<string>> {
    const hashes = [...new Set(contents.map((c) => c.ed2k).filter(Boolean))];
    const linked = new Set<string>();
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.db
        .selectFrom('file_episode_links')
        .select(['ed2k', 'size'])
        .where('ed2k', 'in', hashes.slice(i, i + 500))
        .execute();
      for (const row of rows) linked.add(`${row.ed2k}:${row.size}`);
    }
    return linked;
  }

  /**
   * Records a FILE lookup. A hit stores AniDB's file record and replaces the AniDB-made links of this content with
   * the episodes AniDB lists (manual links are left alone); a miss only counts the attempt.
   */
  async saveLookup(ed2k: string, size: number, info: AniDBFileInfo | null): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const previous = await trx
        .selectFrom('anidb_files')
        .select('lookup_attempts')
        .where('ed2k', '=', ed2k)
        .where('size', '=', size)
        .executeTakeFirst();
      const values = {
        file_id: info?.fileId ?? null,
        anime_id: info?.animeId ?? null,
        group_id: info?.groupId ?? 0,
        source: info?.source ?? '',
        version: info?.version ?? 1,
        is_deprecated: info?.isDeprecated ? 1 : 0,
        is_censored: info?.isCensored === null || !info ? null : info.isCensored ? 1 : 0,
        is_chaptered: info?.isChaptered ? 1 : 0,
        file_name: info?.fileName ?? '',
        description: info?.description ?? '',
        audio_languages: JSON.stringify(info?.audioLanguages ?? []),
        subtitle_languages: JSON.stringify(info?.subtitleLanguages ?? []),
        lookup_attempts: (previous?.lookup_attempts ?? 0) + 1,
        looked_up_at: now,
      };
      if (previous) await trx.updateTable('anidb_files').set(values).where('ed2k', '=', ed2k).where('size', '=', size).execute();
      else
        await trx
          .insertInto('anidb_files')
          .values({ ed2k, size, ...values })
          .execute();
      if (!info) return;
      await trx.deleteFrom('file_episode_links').where('ed2k', '=', ed2k).where('size', '=', size).where('source', '=', 'AniDB').execute();
      const episodes = [{ episodeId: info.episodeId, percentage: 100 }, ...info.otherEpisodes].filter((e) => e.episodeId > 0);
      if (!episodes.length) return;
      await trx
        .insertInto('file_episode_links')
        .values(
          episodes.map((episode, ordering) => ({
            ed2k,
            size,
            anime_id: info.animeId,
            episode_id: episode.episodeId,
            percentage: episode.percentage,
            ordering,
            source: 'AniDB' as const,
            release_group_id: info.groupId,
          })),
        )
        .execute();
    });
  }

  async releaseGroup(id: number): Promise<{ id: number; name: string; short_name: string } | null> {
    return (
      (await this.db.selectFrom('anidb_release_groups').select(['id', 'name', 'short_name']).where('id', '=', id).executeTakeFirst()) ??
      null
    );
  }

  async saveReleaseGroup(group: AniDBReleaseGroup): Promise<void> {
    const row = { name: group.name, short_name: group.shortName, updated_at: new Date().toISOString() };
    await this.db
      .insertInto('anidb_release_groups')
      .values({ id: group.id, ...row })
      .onConflict((c) => c.column('id').doUpdateSet(row))
      .execute();
  }

  async contentsOfAnime(animeId: number): Promise<Array<{ ed2k: string; size: number }>> {
    return this.db.selectFrom('file_episode_links').select(['ed2k', 'size']).distinct().where('anime_id', '=', animeId).execute();
  }

  /** Other episodes of a lookup may belong to other anime; the anime of a link is fixed once the episode is known. */
  async setLinkAnime(episodeId: number, animeId: number): Promise<void> {
    await this.db.updateTable('file_episode_links').set({ anime_id: animeId }).where('episode_id', '=', episodeId).execute();
  }
}
