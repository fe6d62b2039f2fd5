import { Type, type Static } from '@sinclair/typebox';

/**
 * contract server.md §6: the server actions (`GET /api/v3/Action/<Function>`) as the console lists them, by tab.
 * `Function` may carry a sub-path or query (`RemoveMissingFiles/false`). `Destructive` marks one-way operations
 * the console asks to confirm.
 */
export const ActionGroups = ['Import', 'AniDB', 'TMDB', 'Shoko', 'Images', 'Trakt', 'Plex'] as const;
export type ActionGroup = (typeof ActionGroups)[number];

export interface ActionEntry {
  Name: string;
  Description: string;
  Function: string;
  Group: ActionGroup;
  Admin: boolean;
  Destructive?: boolean;
}

const entry = (
  Group: ActionGroup,
  Name: string,
  Function: string,
  Description: string,
  extra: { Admin?: boolean; Destructive?: boolean } = {},
): ActionEntry => ({
  Group,
  Name,
  Function,
  Description,
  Admin: extra.Admin ?? false,
  ...(extra.Destructive ? { Destructive: true } : {}),
});

export const ACTION_CATALOGUE: readonly ActionEntry[] = [
  entry(
    'Import',
    'Run Import',
    'RunImport',
    'Scans the import and drop folders for new files, hashes and identifies them and fetches missing data.',
  ),
  entry(
    'Import',
    'Remove Missing Files',
    'RemoveMissingFiles/true',
    'Removes the records of files no longer on disk and removes them from your AniDB MyList.',
    { Destructive: true },
  ),
  entry(
    'Import',
    'Remove Missing Files (Keep in MyList)',
    'RemoveMissingFiles/false',
    'Removes the records of files no longer on disk, leaving your AniDB MyList as it is.',
    { Destructive: true },
  ),
  entry('Import', 'Import New Files', 'ImportNewFiles', 'Looks for files that are not known yet and queues only those.'),
  entry(
    'AniDB',
    'Download Missing AniDB Data',
    'DownloadMissingAniDBAnimeData',
    'Fetches anime whose AniDB data is missing, including anime of files that lack it.',
    { Admin: true },
  ),
  entry('AniDB', 'Sync AniDB Votes', 'SyncVotes', 'Sends your series votes to AniDB.'),
  entry('AniDB', 'Add All Manual Links To MyList', 'AddAllManualLinksToMyList', 'Adds every manually linked file to your AniDB MyList.', {
    Admin: true,
  }),
  entry('AniDB', 'Update All AniDB Info', 'UpdateAllAniDBInfo', 'Refreshes the AniDB data of every series in the collection.', {
    Admin: true,
  }),
  entry('AniDB', 'Update AniDB Calendar', 'UpdateAniDBCalendar', 'Fetches the AniDB calendar of upcoming episodes now.', { Admin: true }),
  entry('AniDB', 'Get AniDB Notifications', 'GetAniDBNotifications', 'Fetches unread AniDB notifications and messages now.', {
    Admin: true,
  }),
  entry('AniDB', 'Process Moved Files', 'RefreshAniDBMovedFiles', 'Handles the AniDB messages about files that moved to another entry.', {
    Admin: true,
  }),
  entry(
    'AniDB',
    'OVERWRITE AniDB MyList',
    'SyncMyList',
    'One-way sync: makes your AniDB MyList match the local collection, overwriting what AniDB has.',
    { Admin: true, Destructive: true },
  ),
  entry('TMDB', 'Search for TMDB Matches', 'SearchForTmdbMatches', 'Looks for TMDB shows or movies for every series without a TMDB link.'),
  entry('TMDB', 'Update All TMDB Shows', 'UpdateAllTmdbShows', 'Refreshes every linked TMDB show.'),
  entry('TMDB', 'Delete Unused TMDB Shows', 'PurgeAllUnusedTmdbShows', 'Deletes the stored TMDB shows no series links to.', {
    Admin: true,
    Destructive: true,
  }),
  entry('TMDB', 'Update All TMDB Movies', 'UpdateAllTmdbMovies', 'Refreshes every linked TMDB movie.'),
  entry('TMDB', 'Delete Unused TMDB Movies', 'PurgeAllUnusedTmdbMovies', 'Deletes the stored TMDB movies no series links to.', {
    Admin: true,
    Destructive: true,
  }),
  entry('TMDB', 'Download Missing TMDB People', 'DownloadMissingTmdbPeople', 'Fetches the cast and crew members that are missing.'),
  entry(
    'TMDB',
    'Delete All TMDB Movie Collections',
    'PurgeAllTmdbMovieCollections',
    'Deletes all TMDB movie collections and their images.',
    { Admin: true, Destructive: true },
  ),
  entry(
    'TMDB',
    'Delete All TMDB Show Alternate Orderings',
    'PurgeAllTmdbShowAlternateOrderings',
    'Deletes the alternate episode orderings of all TMDB shows.',
    { Admin: true, Destructive: true },
  ),
  entry(
    'Shoko',
    'AVDump Mismatched Files',
    'AVDumpMismatchedFiles',
    'Dumps every file whose chapters disagree with AniDB (needs an AVDump key).',
    { Admin: true },
  ),
  entry('Shoko', 'Recreate All Groups', 'RecreateAllGroups', 'Deletes all groups and builds them again from the series relations.', {
    Admin: true,
    Destructive: true,
  }),
  entry('Shoko', 'Rename All Groups', 'RenameAllGroups', 'Renames the groups without a custom name after the language settings.', {
    Admin: true,
  }),
  entry(
    'Shoko',
    'Update Missing AniDB Release Groups',
    'UpdateMissingAniDBFileInfo?missingInfo=true&outOfDate=false',
    'Asks AniDB again about files without release group information.',
    { Admin: true },
  ),
  entry(
    'Shoko',
    'Update Missing AniDB File Info',
    'UpdateMissingAniDBFileInfo?missingInfo=true&outOfDate=true',
    'Asks AniDB again about files with missing or outdated information.',
    { Admin: true },
  ),
  entry('Shoko', 'Update All Mediainfo', 'UpdateAllMediaInfo', 'Reads the media information of every file again.', { Admin: true }),
  entry('Shoko', 'Update Series Stats', 'UpdateSeriesStats', 'Recalculates the statistics of all series and groups.', { Admin: true }),
  entry('Images', 'Update All Images', 'UpdateAllImages', 'Downloads the missing AniDB and TMDB images.'),
  entry('Images', 'Validate All Images', 'ValidateAllImages', 'Checks every stored image and downloads broken ones again.'),
  entry(
    'Trakt',
    'Send Watch States to Trakt',
    'SendWatchStatesToTrakt',
    'One-way sync: overwrites your Trakt watch history with the local watch states.',
    { Destructive: true },
  ),
  entry('Trakt', 'Get Watch States from Trakt', 'GetWatchStatesFromTrakt', 'Reads your Trakt watch history into the local watch states.'),
  entry('Plex', 'Sync Plex Watch Status', 'PlexSyncAll', 'Syncs the watch states of every user with a linked Plex account.', {
    Admin: true,
  }),
  entry('Plex', 'Force Unlink Plex', '/plex/token/invalidate', 'Forgets the Plex token of your account.'),
];

/** Query of the actions that take options (`UpdateMissingAniDBFileInfo`, `PurgeAllTmdbLinks`). */
export const ActionOptionsQuery = Type.Object({
  missingInfo: Type.Optional(Type.Boolean()),
  outOfDate: Type.Optional(Type.Boolean()),
  removeShowLinks: Type.Optional(Type.Boolean()),
  removeMovieLinks: Type.Optional(Type.Boolean()),
  resetAutoLinkingState: Type.Optional(Type.Boolean()),
});
export type ActionOptionsQuery = Static<typeof ActionOptionsQuery>;

/** `Action/RemoveMissingFiles/{removeFromMyList}`: a segment other than `true`/`false` (any casing) is a 404. */
export const RemoveMissingFilesParams = Type.Object({ removeFromMyList: Type.String() });
export type RemoveMissingFilesParams = Static<typeof RemoveMissingFilesParams>;
