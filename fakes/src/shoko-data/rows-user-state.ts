import type { ShokoCollection } from './collection.js';
import { bit, type RowWriter } from './row-writer.js';
import { userStats } from './user-stats.js';
import { shokoDateTime, shokoDateTimeOrNull } from './values.js';

/** The per-user tables: file and episode watch records, and the series and group figures derived from them. */
export function writeUserStateRows(writer: RowWriter, collection: ShokoCollection): void {
  for (const state of collection.fileStates) {
    writer.insert('VideoLocal_User', {
      JMMUserID: state.userId,
      VideoLocalID: state.fileId,
      WatchedDate: shokoDateTimeOrNull(state.watchedAt),
      ResumePosition: state.resumePositionMs,
      WatchedCount: state.watchedCount,
      LastUpdated: shokoDateTime(state.lastUpdated, true),
    });
  }
  const seriesOfEpisode = new Map(collection.episodes.map((episode) => [episode.id, episode.seriesId]));
  for (const state of collection.episodeStates) {
    writer.insert('AnimeEpisode_User', {
      JMMUserID: state.userId,
      AnimeEpisodeID: state.episodeId,
      AnimeSeriesID: seriesOfEpisode.get(state.episodeId)!,
      WatchedDate: shokoDateTimeOrNull(state.watchedAt),
      PlayedCount: state.playedCount,
      WatchedCount: state.watchedCount,
      StoppedCount: state.stoppedCount,
    });
  }
  const stats = userStats(collection);
  for (const series of stats.series) {
    writer.insert('AnimeSeries_User', {
      JMMUserID: series.userId,
      AnimeSeriesID: series.seriesId,
      UnwatchedEpisodeCount: series.unwatchedEpisodes,
      WatchedEpisodeCount: series.watchedEpisodes,
      WatchedDate: shokoDateTimeOrNull(series.watchedDate),
      PlayedCount: series.playedCount,
      WatchedCount: series.watchedCount,
      StoppedCount: series.stoppedCount,
      LastEpisodeUpdate: shokoDateTimeOrNull(series.lastEpisodeUpdate, true),
      HiddenUnwatchedEpisodeCount: series.hiddenUnwatchedEpisodes,
    });
  }
  const favourites = new Map(collection.groups.map((group) => [group.id, new Set(group.favouriteOf)]));
  for (const group of stats.groups) {
    writer.insert('AnimeGroup_User', {
      JMMUserID: group.userId,
      AnimeGroupID: group.groupId,
      IsFave: bit(favourites.get(group.groupId)!.has(group.userId)),
      UnwatchedEpisodeCount: group.unwatchedEpisodes,
      WatchedEpisodeCount: group.watchedEpisodes,
      WatchedDate: shokoDateTimeOrNull(group.watchedDate),
      PlayedCount: group.playedCount,
      WatchedCount: group.watchedCount,
      StoppedCount: group.stoppedCount,
    });
  }
}
