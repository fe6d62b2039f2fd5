import type { EpisodeStateSpec, FileStateSpec, ShokoCollection } from './collection.js';

export interface SeriesUserStats {
  userId: number;
  seriesId: number;
  unwatchedEpisodes: number;
  hiddenUnwatchedEpisodes: number;
  watchedEpisodes: number;
  watchedDate: Date | null;
  watchedCount: number;
  playedCount: number;
  stoppedCount: number;
  lastEpisodeUpdate: Date | null;
}

export interface GroupUserStats {
  userId: number;
  groupId: number;
  unwatchedEpisodes: number;
  watchedEpisodes: number;
  watchedDate: Date | null;
  watchedCount: number;
  playedCount: number;
  stoppedCount: number;
}

const later = (a: Date | null, b: Date | null): Date | null => (a === null ? b : b === null || a >= b ? a : b);

/**
 * AnimeSeries_User and AnimeGroup_User as Shoko derives them, for every user and every series or group: only regular
 * episodes and specials that have a file count; one is watched when the user's file record or episode record has a
 * watched date (the watched file record wins, else the latest updated); hidden unwatched episodes are counted apart.
 * A group adds up the series of its own and of all its subgroups. Played and stopped counts are the episodes' sums.
 */
export function userStats(collection: ShokoCollection): { series: SeriesUserStats[]; groups: GroupUserStats[] } {
  const episodeTypes = new Map<number, number>();
  for (const anime of collection.anime) for (const episode of anime.episodes) episodeTypes.set(episode.id, episode.type);

  const filesByEpisode = new Map<number, number[]>();
  for (const file of collection.files) {
    for (const link of file.episodeLinks) {
      const files = filesByEpisode.get(link.episodeId) ?? [];
      files.push(file.id);
      filesByEpisode.set(link.episodeId, files);
    }
  }
  const fileStates = new Map<string, FileStateSpec>();
  for (const state of collection.fileStates) fileStates.set(`${state.userId}:${state.fileId}`, state);
  const episodeStates = new Map<string, EpisodeStateSpec>();
  for (const state of collection.episodeStates) episodeStates.set(`${state.userId}:${state.episodeId}`, state);
  const episodesBySeries = new Map<number, typeof collection.episodes>();
  for (const episode of collection.episodes) {
    const list = episodesBySeries.get(episode.seriesId) ?? [];
    list.push(episode);
    episodesBySeries.set(episode.seriesId, list);
  }

  const series: SeriesUserStats[] = [];
  for (const one of collection.series) {
    const counted = (episodesBySeries.get(one.id) ?? []).filter((episode) => {
      const type = episodeTypes.get(episode.anidbEpisodeId);
      return (type === 1 || type === 3) && filesByEpisode.has(episode.anidbEpisodeId);
    });
    for (const user of collection.users) {
      const stats: SeriesUserStats = {
        userId: user.id,
        seriesId: one.id,
        unwatchedEpisodes: 0,
        hiddenUnwatchedEpisodes: 0,
        watchedEpisodes: 0,
        watchedDate: null,
        watchedCount: 0,
        playedCount: 0,
        stoppedCount: 0,
        lastEpisodeUpdate: null,
      };
      for (const episode of counted) {
        const fileRecords = (filesByEpisode.get(episode.anidbEpisodeId) ?? [])
          .map((fileId) => fileStates.get(`${user.id}:${fileId}`))
          .filter((state): state is FileStateSpec => state !== undefined)
          .sort((a, b) => Number(b.watchedAt !== null) - Number(a.watchedAt !== null) || b.lastUpdated.getTime() - a.lastUpdated.getTime());
        const fileRecord = fileRecords[0];
        for (const record of fileRecords) stats.lastEpisodeUpdate = later(stats.lastEpisodeUpdate, record.lastUpdated);
        const episodeRecord = episodeStates.get(`${user.id}:${episode.id}`);
        stats.playedCount += episodeRecord?.playedCount ?? 0;
        stats.stoppedCount += episodeRecord?.stoppedCount ?? 0;
        if (!fileRecord?.watchedAt && !episodeRecord?.watchedAt) {
          if (episode.hidden) stats.hiddenUnwatchedEpisodes++;
          else stats.unwatchedEpisodes++;
          continue;
        }
        stats.watchedDate = later(later(stats.watchedDate, fileRecord?.watchedAt ?? null), episodeRecord?.watchedAt ?? null);
        stats.watchedEpisodes++;
        stats.watchedCount += fileRecord?.watchedCount ?? episodeRecord?.watchedCount ?? 0;
      }
      series.push(stats);
    }
  }

  const seriesStats = new Map(series.map((stats) => [`${stats.userId}:${stats.seriesId}`, stats]));
  const childGroups = new Map<number, number[]>();
  for (const group of collection.groups) {
    if (group.parentId === null) continue;
    childGroups.set(group.parentId, [...(childGroups.get(group.parentId) ?? []), group.id]);
  }
  const seriesOfGroup = new Map<number, number[]>();
  for (const one of collection.series) seriesOfGroup.set(one.groupId, [...(seriesOfGroup.get(one.groupId) ?? []), one.id]);
  const allSeriesOf = (groupId: number): number[] => [
    ...(seriesOfGroup.get(groupId) ?? []),
    ...(childGroups.get(groupId) ?? []).flatMap((child) => allSeriesOf(child)),
  ];

  const groups: GroupUserStats[] = [];
  for (const group of collection.groups) {
    const members = allSeriesOf(group.id);
    for (const user of collection.users) {
      const stats: GroupUserStats = {
        userId: user.id,
        groupId: group.id,
        unwatchedEpisodes: 0,
        watchedEpisodes: 0,
        watchedDate: null,
        watchedCount: 0,
        playedCount: 0,
        stoppedCount: 0,
      };
      for (const seriesId of members) {
        const one = seriesStats.get(`${user.id}:${seriesId}`);
        if (!one) continue;
        stats.unwatchedEpisodes += one.unwatchedEpisodes;
        stats.watchedEpisodes += one.watchedEpisodes;
        stats.watchedCount += one.watchedCount;
        stats.playedCount += one.playedCount;
        stats.stoppedCount += one.stoppedCount;
        stats.watchedDate = later(stats.watchedDate, one.watchedDate);
      }
      groups.push(stats);
    }
  }
  return { series, groups };
}
