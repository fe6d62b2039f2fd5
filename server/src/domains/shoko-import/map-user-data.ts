import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import type { MapContext } from './map-context.js';
import { shokoTime } from './shoko-values.js';

/** AniDB_Vote.VoteType: 1 anime (permanent), 2 anime (temporary), 3 group, 4 episode. Values are AniDB's ×100. */
const VOTE_ANIME = 1;
const VOTE_ANIME_TEMPORARY = 2;
const VOTE_EPISODE = 4;

/**
 * Per-user watch state: each episode's watched date and counts, each file's resume position and watched date, the
 * favourite groups. Votes:
 * Shoko keeps one set per server (the AniDB account's), given here to each user who syncs with AniDB (else the first
 * administrator), as our votes are per user.
 */
export function mapUserData(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const votes = votesByEntity(ctx);
  const userMissing = (row: { JMMUserID?: unknown }) => (ids.users.has(Number(row.JMMUserID)) ? undefined : 'its user was not imported');

  const episodeRows = shoko.all('AnimeEpisode_User', [
    'JMMUserID',
    'AnimeEpisodeID',
    'WatchedDate',
    'PlayedCount',
    'WatchedCount',
    'StoppedCount',
  ]);
  const episodeStates = report.kind('Episode watch states', episodeRows.length);
  const anidbOfEpisode = new Map<number, number>();
  for (const [anidbId, episodeId] of ids.episodesByAniDB) anidbOfEpisode.set(episodeId, anidbId);
  const seen = new Set<string>();
  const stateOut: Array<RowOf<'user_episode_states'>> = keepRows(episodeStates, episodeRows, {
    key: (row) => `${Number(row.JMMUserID)}/${Number(row.AnimeEpisodeID)}`,
    refuse: (row) => userMissing(row) ?? (ids.episodes.has(Number(row.AnimeEpisodeID)) ? undefined : 'its episode was not imported'),
    kept: seen,
    map: (row) => {
      const userId = Number(row.JMMUserID);
      const episodeId = Number(row.AnimeEpisodeID);
      const watchedAt = shokoTime(row.WatchedDate);
      const episodeVote = votes.episode.get(anidbOfEpisode.get(episodeId) ?? -1);
      return {
        user_id: userId,
        episode_id: episodeId,
        watched_at: watchedAt,
        watch_count: Math.max(Number(row.WatchedCount ?? 0), watchedAt ? 1 : 0),
        rating: episodeVote !== undefined && votes.owners.includes(userId) ? episodeVote : null,
        updated_at: watchedAt ?? ctx.now,
      };
    },
  });
  // Episode votes of episodes nobody has a state for still need a row to live in.
  for (const [anidbId, value] of votes.episode) {
    const episodeId = ids.episodesByAniDB.get(anidbId);
    if (episodeId === undefined) continue;
    for (const userId of votes.owners) {
      if (seen.has(`${userId}/${episodeId}`)) continue;
      seen.add(`${userId}/${episodeId}`);
      stateOut.push({ user_id: userId, episode_id: episodeId, watched_at: null, watch_count: 0, rating: value, updated_at: ctx.now });
    }
  }
  plan.add('user_episode_states', stateOut);

  const fileRows = shoko.all('VideoLocal_User', [
    'JMMUserID',
    'VideoLocalID',
    'WatchedDate',
    'ResumePosition',
    'WatchedCount',
    'LastUpdated',
  ]);
  const fileStates = report.kind('File watch states and resume positions', fileRows.length);
  plan.add(
    'user_file_states',
    keepRows(fileStates, fileRows, {
      key: (row) => `${Number(row.JMMUserID)}/${Number(row.VideoLocalID)}`,
      refuse: (row) => userMissing(row) ?? (ids.files.has(Number(row.VideoLocalID)) ? undefined : 'its file was not imported'),
      map: (row) => {
        const watchedAt = shokoTime(row.WatchedDate);
        return {
          user_id: Number(row.JMMUserID),
          file_id: Number(row.VideoLocalID),
          resume_position_ms: Math.max(0, Number(row.ResumePosition ?? 0)),
          watched_at: watchedAt,
          watch_count: Math.max(Number(row.WatchedCount ?? 0), watchedAt ? 1 : 0),
          updated_at: shokoTime(row.LastUpdated) ?? watchedAt ?? ctx.now,
        };
      },
    }),
  );

  const favouriteRows = shoko.all('AnimeGroup_User', ['JMMUserID', 'AnimeGroupID', 'IsFave']).filter((r) => Number(r.IsFave));
  const favourites = report.kind('Favourite groups', favouriteRows.length);
  plan.add(
    'user_group_favourites',
    favouriteRows.flatMap((row) => {
      const key = `${Number(row.JMMUserID)}/${Number(row.AnimeGroupID)}`;
      const userRefusal = userMissing(row);
      if (userRefusal) return (favourites.skipped(userRefusal, key), []);
      if (!ids.groups.has(Number(row.AnimeGroupID))) return (favourites.skipped('its group was not imported', key), []);
      favourites.took();
      return [{ user_id: Number(row.JMMUserID), group_id: Number(row.AnimeGroupID) }];
    }),
  );

  plan.add(
    'user_series_votes',
    [...votes.series].flatMap(([seriesId, vote]) =>
      votes.owners.map((userId) => ({
        user_id: userId,
        series_id: seriesId,
        value: vote.value,
        vote_type: vote.type,
        updated_at: ctx.now,
      })),
    ),
  );
}

function votesByEntity(ctx: MapContext) {
  const { shoko, plan, report, ids } = ctx;
  const users = plan.rows('users');
  const syncing = users.filter((u) => u.anidb_sync).map((u) => Number(u.id));
  const owners = syncing.length
    ? syncing
    : users
        .filter((u) => u.is_admin)
        .map((u) => Number(u.id))
        .slice(0, 1);
  const rows = shoko.all('AniDB_Vote', ['AniDB_VoteID', 'EntityID', 'VoteValue', 'VoteType']);
  const tally = report.kind('Votes', rows.length);
  const series = new Map<number, { value: number; type: 'Permanent' | 'Temporary' }>();
  const episode = new Map<number, number>();
  for (const row of rows) {
    const type = Number(row.VoteType);
    const entity = Number(row.EntityID);
    const value = Math.min(10, Math.max(0, Number(row.VoteValue ?? 0) / 100));
    if (Number(row.VoteValue ?? -1) < 0) tally.skipped('it was withdrawn', entity);
    else if (type === VOTE_ANIME || type === VOTE_ANIME_TEMPORARY) {
      const seriesId = ids.seriesByAnime.get(entity);
      const existing = seriesId === undefined ? undefined : series.get(seriesId);
      if (seriesId === undefined) tally.skipped('no imported series has this anime', entity);
      else if (existing?.type === 'Permanent' && type === VOTE_ANIME_TEMPORARY)
        tally.skipped('the anime also has a permanent vote', entity);
      else {
        series.set(seriesId, { value, type: type === VOTE_ANIME ? 'Permanent' : 'Temporary' });
        tally.took();
      }
    } else if (type === VOTE_EPISODE) {
      if (!ids.episodesByAniDB.has(entity)) tally.skipped('no imported episode has this AniDB episode', entity);
      else {
        episode.set(entity, value);
        tally.took();
      }
    } else tally.skipped('votes on release groups are not kept here', entity);
  }
  if (rows.length && owners.length)
    report.note(
      `Shoko's votes belong to its AniDB account; they were given to ${owners.length === 1 ? 'the user' : 'the users'} ${users
        .filter((u) => owners.includes(Number(u.id)))
        .map((u) => `"${u.username}"`)
        .join(', ')}.`,
    );
  return { series, episode, owners };
}
