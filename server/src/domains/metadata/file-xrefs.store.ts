import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Content = { ed2k: string; size: number };

/** SQL of what the File model shows from the metadata domain: links of contents to episodes, and AniDB's file records. */
export class FileXRefsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Links of contents with these ED2K hashes, with the anime, Shoko episode and Shoko series they lead to. */
  linksOfHashes(hashes: string[]) {
    return this.db
      .selectFrom('file_episode_links as l')
      .leftJoin('anidb_episodes as ae', 'ae.id', 'l.episode_id')
      .leftJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .leftJoin('series as s', (join) => join.on((eb) => eb('s.anime_id', '=', eb.fn.coalesce('ae.anime_id', 'l.anime_id'))))
      .select([
        'l.ed2k',
        'l.size',
        'l.episode_id',
        'l.anime_id',
        'l.percentage',
        'l.source',
        'l.release_group_id',
        'l.ordering',
        'ae.anime_id as episodeAnime',
        'e.id as shokoEpisode',
        's.id as shokoSeries',
      ])
      .where('l.ed2k', 'in', hashes)
      .orderBy('l.ordering')
      .execute();
  }

  /** Contents with these ED2K hashes that have a link a user made (one row per link). */
  userLinkedOfHashes(hashes: string[]): Promise<Content[]> {
    return this.db
      .selectFrom('file_episode_links')
      .select(['ed2k', 'size'])
      .where('source', '=', 'User')
      .where('ed2k', 'in', hashes)
      .execute();
  }

  /** The AniDB anime of a Shoko series; undefined when there is no such series. */
  async animeOfSeries(seriesId: number): Promise<number | undefined> {
    return (await this.db.selectFrom('series').select('anime_id').where('id', '=', seriesId).executeTakeFirst())?.anime_id;
  }

  /** Contents linked to an anime: through its episodes, or to the anime itself when the episode is not stored. */
  contentsOfAnime(animeId: number): Promise<Content[]> {
    // Two index reads (the anime's episodes, the anime's own links) rather than one OR, which scans every link.
    return this.db
      .selectFrom('anidb_episodes as ae')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'ae.id')
      .select(['l.ed2k', 'l.size'])
      .where('ae.anime_id', '=', animeId)
      .unionAll(
        this.db
          .selectFrom('file_episode_links as l')
          .select(['l.ed2k', 'l.size'])
          .where('l.anime_id', '=', animeId)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('anidb_episodes as ae').select('ae.id').whereRef('ae.id', '=', 'l.episode_id')))),
      )
      .execute();
  }

  /** The AniDB episode of a Shoko episode; undefined when there is no such episode. */
  async anidbEpisodeOf(episodeId: number): Promise<number | undefined> {
    return (await this.db.selectFrom('episodes').select('anidb_episode_id').where('id', '=', episodeId).executeTakeFirst())
      ?.anidb_episode_id;
  }

  /** The contents linked to each of these episodes of the collection, in one query. */
  contentsOfEpisodes(episodeIds: number[]): Promise<Array<Content & { episode_id: number }>> {
    if (!episodeIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .select(['e.id as episode_id', 'l.ed2k', 'l.size'])
      .where('e.id', 'in', episodeIds)
      .execute();
  }

  contentsOfAnidbEpisode(anidbEpisodeId: number): Promise<Content[]> {
    return this.db.selectFrom('file_episode_links').select(['ed2k', 'size']).where('episode_id', '=', anidbEpisodeId).execute();
  }

  /** AniDB's records of the contents with these ED2K hashes that AniDB knows, with their release group's names. */
  anidbFilesOfHashes(hashes: string[]) {
    return this.db
      .selectFrom('anidb_files')
      .leftJoin('anidb_release_groups as g', 'g.id', 'anidb_files.group_id')
      .selectAll('anidb_files')
      .select(['g.name as group_name', 'g.short_name as group_short_name'])
      .where('ed2k', 'in', hashes)
      .where('file_id', 'is not', null)
      .execute();
  }

  /** A file's links with the local episode, series and group they lead to, for the hub's file events. */
  linksOfFile(fileId: number) {
    return this.db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .leftJoin('anidb_episodes as ae', 'ae.id', 'l.episode_id')
      .leftJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .leftJoin('series as s', (join) => join.on((eb) => eb('s.anime_id', '=', eb.fn.coalesce('ae.anime_id', 'l.anime_id'))))
      .select(['l.episode_id', 'l.anime_id', 'ae.anime_id as episodeAnime', 'e.id as shokoEpisode', 's.id as shokoSeries', 's.group_id'])
      .where('f.id', '=', fileId)
      .orderBy('l.ordering')
      .execute();
  }
}
