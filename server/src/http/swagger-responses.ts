import { Type, type TSchema } from '@sinclair/typebox';
import {
  AnidbAnimeHit,
  AnidbAnimeRecommendedForYou,
  AnidbEpisode,
  AVDumpStatus,
  CollectionImage,
  DashboardCollectionStats,
  DashboardEpisode,
  DashboardSeriesSummary,
  FileIdSet,
  Images,
  MediaInfo,
  RandomImageMetadata,
  RelatedAnime,
  ReleaseEpisode,
  Role,
  SeriesFileSummary,
  SeriesWithEpisodeCount,
  TmdbSeason,
  WebUISeriesExtra,
  WebUISeriesOverview,
  Episode,
  Filter,
  FilterExpressionHelp,
  Group,
  ListResult,
  Series,
  SeriesAutoMatchSettings,
  SeriesSearchResult,
  SortingCriteriaHelp,
  Tag,
  WebUIGroupExtra,
  YearlySeason,
  ApiV2Message,
  QueueTypeCounts,
  ServerSettings,
  TmdbMovie,
  TmdbMovieCollection,
  TmdbOverview,
  TmdbTitle,
  WebUITheme,
} from '@shoko-ts/contract';

/*
 * What the routes without a `schema.response` answer, for the API description only. A route's `schema.response` also
 * drives Fastify's serializer (properties it does not name are dropped), so those routes keep sending what their
 * handlers build and their answers are described here instead, applied when the document is generated
 * (`documentResponses`). swagger.api.test.ts checks that every operation is described and that the answers of
 * real routes on a populated server match their descriptions.
 */

/** One answer of a route: a JSON model, plain text, a binary body or nothing. */
interface ResponseDoc {
  description: string;
  /** Media type → schema; absent for an empty body. */
  content?: Record<string, { schema: TSchema | { type: 'string'; format?: string } }>;
  /** `null` marks an empty body for @fastify/swagger. */
  type?: 'null';
}
type Responses = Record<number, ResponseDoc | TSchema>;

/** A JSON model; @fastify/swagger hoists the recursive ones (`$id`) into the document's components. */
const json = (schema: TSchema, status = 200): Responses => ({ [status]: schema });
const list = (item: TSchema) => json(Type.Array(item));
const paged = (item: TSchema) => json(ListResult(item));
const text = (description: string, status = 200): Responses => ({
  [status]: { description, content: { 'text/plain': { schema: Type.String() } } },
});
const empty = (description: string, status = 200): Responses => ({ [status]: { description, type: 'null' } });
const binary = (mediaType: string, description: string): Responses => ({
  200: { description, content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } },
});
/** A route that queues or changes something and answers with an empty body. */
const done = empty('Done; the body is empty.');
const noContent = empty('Done; no content.', 204);
/** Work done at once (200) or queued (204), both with an empty body. */
const doneOrQueued: Responses = { ...empty('Done; the body is empty.'), ...empty('Queued; no content.', 204) };

const css = (description: string): Responses => ({ 200: { description, content: { 'text/css': { schema: Type.String() } } } });
const installed: Responses = { 302: { description: 'Installed; redirects to the console (`Location`).', type: 'null' } };

/** The file's bytes with the media type of its extension (video/x-matroska, video/mp4, text/x-ssa…). */
const fileBytes = { '*/*': { schema: { type: 'string' as const, format: 'binary' } } };
const StreamBody = {
  200: { description: 'The whole file.', content: fileBytes },
  206: { description: 'The requested byte range (`Content-Range`).', content: fileBytes },
};
const LettersCount = Type.Record(Type.String(), Type.Integer(), { description: 'Count of items by first letter.' });
const SeriesRelation = Type.Object({
  IDs: Type.Object({ Shoko: Type.Union([Type.Integer(), Type.Null()]), AniDB: Type.Integer() }),
  RelatedIDs: Type.Object({ Shoko: Type.Union([Type.Integer(), Type.Null()]), AniDB: Type.Integer() }),
  Type: Type.String(),
  Source: Type.String(),
});

/** `METHOD /path` as the document spells it (path parameters in braces) → the answers of the route. */
export const DOCUMENTED_RESPONSES: Record<string, Responses> = {
  // ---------------------------------------------------------------- auth, users, init, settings, queue
  'DELETE /api/auth': done,
  'POST /api/auth/apikey': text('The new API key.'),
  'POST /api/auth/ChangePassword': done,
  'POST /api/v3/User/Current/ChangePassword': done,
  'DELETE /api/v3/User/{userID}': done,
  'POST /api/v3/User/{userID}/ChangePassword': done,
  'POST /api/v3/Init/DefaultUser': done,
  'GET /api/v3/Init/StartServer': done,
  'GET /api/v3/Init/Database/Test': done,
  'GET /api/v3/Settings': json(ServerSettings),
  'PATCH /api/v3/Settings': done,
  'POST /api/v3/Settings/AniDB/TestLogin': done,
  'POST /api/v3/Queue/Resume': done,
  'POST /api/v3/Queue/Pause': done,
  'POST /api/v3/Queue/Clear': done,
  'GET /api/v3/Queue/Types': json(QueueTypeCounts),
  'GET /api/v3/Backup/{name}': binary('application/gzip', 'The backup archive (.tar.gz).'),
  'DELETE /api/v3/Backup/{name}': done,

  // ---------------------------------------------------------------- import folders and files
  'PUT /api/v3/ImportFolder': done,
  'PATCH /api/v3/ImportFolder/{folderID}': done,
  'DELETE /api/v3/ImportFolder/{folderID}': done,
  'GET /api/v3/ImportFolder/{folderID}/Scan': done,
  'DELETE /api/v3/File': done,
  'DELETE /api/v3/File/Location': done,
  'DELETE /api/v3/File/{fileID}': done,
  'DELETE /api/v3/File/Location/{locationID}': done,
  'PUT /api/v3/File/{fileID}/Ignore': done,
  'PUT /api/v3/File/{fileID}/Variation': done,
  'POST /api/v3/File/{fileID}/Rescan': done,
  'POST /api/v3/File/{fileID}/Rehash': done,
  'POST /api/v3/Series/{seriesID}/File/Rescan': done,
  'POST /api/v3/Series/{seriesID}/File/Rehash': done,
  'POST /api/v3/Series/{seriesID}/File/Relocate': done,
  'POST /api/v3/File/AniDB/{anidbFileID}/Rescan': done,
  'GET /api/v3/File/{fileID}/Episode': list(Episode),
  'GET /api/v3/File/{fileID}/Stream': StreamBody,
  'HEAD /api/v3/File/{fileID}/Stream': StreamBody,
  'GET /api/v3/File/{fileID}/StreamDirectory/{filename}': StreamBody,
  'HEAD /api/v3/File/{fileID}/StreamDirectory/{filename}': StreamBody,
  'GET /api/v3/File/{fileID}/StreamDirectory/': text('The file and its external subtitles as a directory listing.'),
  'GET /api/v3/File/{fileID}/StreamDirectory/ExternalSub/{filename}': StreamBody,
  'HEAD /api/v3/File/{fileID}/StreamDirectory/ExternalSub/{filename}': StreamBody,
  'GET /api/v3/File/{fileID}/Scrobble': text('The event was recorded.', 202),
  'PATCH /api/v3/File/{fileID}/Scrobble': text('The event was recorded.', 202),
  'POST /api/v3/File/{fileID}/Watched/{watched}?': done,
  'POST /api/v3/AVDump/DumpFiles': done,
  'POST /api/v3/File/{fileID}/AVDump': done,
  'POST /api/v3/AVDump/Update': json(Type.Boolean()),

  // ---------------------------------------------------------------- AniDB metadata and manual links
  'POST /api/v3/Series/AniDB/{anidbID}/Refresh': json(Type.Boolean()),
  'POST /api/v3/Series/{seriesID}/AniDB/Refresh': json(Type.Boolean()),
  'GET /api/v3/Series/AniDB/{anidbID}/Episode': paged(AnidbEpisode),
  'DELETE /api/v3/Series/{seriesID}': done,
  'POST /api/v3/File/{fileID}/Link': done,
  'DELETE /api/v3/File/{fileID}/Link': done,
  'POST /api/v3/File/{fileID}/LinkFromSeries': done,
  'POST /api/v3/File/LinkFromSeries': done,
  'POST /api/v3/File/{fileID}/AddToMyList': done,
  'POST /api/v3/File/Link': done,

  // ---------------------------------------------------------------- images
  'GET /api/v3/Image/Random/{imageType}': binary('image/*', 'A random image of the type.'),
  'GET /api/v3/Image/{source}/{type}/{value}': binary('image/*', 'The image.'),
  'GET /api/v3/Playback/Session/{sessionID}/{name}': binary(
    'application/octet-stream',
    "The session's HLS playlist (application/vnd.apple.mpegurl), its init segment or a media segment (video/mp4).",
  ),
  'POST /api/v3/Playback/Session/{sessionID}/Stop': noContent,
  'POST /api/v3/Playback/Session/{sessionID}/KeepAlive': noContent,
  'DELETE /api/v3/Playback/Session/{sessionID}': noContent,
  'GET /api/v3/Playback/File/{fileID}/Subtitle/{subtitleID}': text('The subtitle track as ASS (text/x-ssa) or WebVTT (text/vtt).'),
  'GET /api/v3/Playback/File/{fileID}/Font/{index}': binary('application/octet-stream', 'The font attachment.'),
  'POST /api/v3/Image/{source}/{type}/{value}/Enabled': noContent,

  // ---------------------------------------------------------------- groups
  'GET /api/v3/Group': paged(Group),
  'POST /api/v3/Group': json(Group, 201),
  'GET /api/v3/Group/{groupID}': json(Group),
  'PUT /api/v3/Group/{groupID}': json(Group),
  'PATCH /api/v3/Group/{groupID}': json(Group),
  'DELETE /api/v3/Group/{groupID}': noContent,
  'POST /api/v3/Group/{groupID}/Recalculate': done,
  'GET /api/v3/Group/{groupID}/Series': list(Series),
  'GET /api/v3/Group/Letters': json(LettersCount),
  'GET /api/v3/Group/{groupID}/Group': list(Group),
  'GET /api/v3/Group/{groupID}/Parent': json(Group),
  'GET /api/v3/Group/{groupID}/Relations': list(SeriesRelation),
  'GET /api/v3/Group/{groupID}/MainSeries': json(Series),
  'GET /api/v3/Series/{seriesID}/Group': json(Group),
  'PATCH /api/v3/Series/{seriesID}/Move/{groupID}': done,
  'POST /api/v3/WebUI/GroupView': list(WebUIGroupExtra),

  // ---------------------------------------------------------------- filters
  'GET /api/v3/Filter': paged(Filter),
  'POST /api/v3/Filter': json(Filter),
  'GET /api/v3/Filter/Expressions': list(FilterExpressionHelp),
  'GET /api/v3/Filter/SortingCriteria': list(SortingCriteriaHelp),
  'GET /api/v3/Filter/{filterID}': json(Filter),
  'PUT /api/v3/Filter/{filterID}': json(Filter),
  'PATCH /api/v3/Filter/{filterID}': json(Filter),
  'DELETE /api/v3/Filter/{filterID}': noContent,
  'GET /api/v3/Filter/{filterID}/Filter': paged(Filter),
  'GET /api/v3/Filter/{filterID}/Group': paged(Group),
  'GET /api/v3/Filter/{filterID}/Group/Letters': json(LettersCount),
  'GET /api/v3/Filter/{filterID}/Series': paged(Series),
  'GET /api/v3/Filter/{filterID}/Series/OnlyIDs': list(Type.Integer()),
  'GET /api/v3/Filter/{filterID}/Group/{groupID}/Group': list(Group),
  'GET /api/v3/Filter/{filterID}/Group/{groupID}/Series': list(Series),
  'GET /api/v3/Filter/{filterID}/Parent': json(Filter),
  'POST /api/v3/Filter/Preview/Group': paged(Group),
  'POST /api/v3/Filter/Preview/Series': paged(Series),
  'POST /api/v3/Filter/Preview/Group/Letters': json(LettersCount),
  'POST /api/v3/Filter/Preview/Series/OnlyIDs': list(Type.Integer()),
  'POST /api/v3/Filter/Preview/Group/{groupID}/Group': list(Group),
  'POST /api/v3/Filter/Preview/Group/{groupID}/Series': list(Series),

  // ---------------------------------------------------------------- series
  'GET /api/v3/Series': paged(Series),
  'GET /api/v3/Series/{seriesID}': json(Series),
  'GET /api/v3/Series/Search': list(SeriesSearchResult),
  'GET /api/v3/Series/Search/{query}': list(SeriesSearchResult),
  'GET /api/v3/Series/StartsWith/{query}': list(SeriesSearchResult),
  'GET /api/v3/Series/PathEndsWith/{*}': list(Series),
  'GET /api/v3/Series/Years': list(Type.Integer()),
  'GET /api/v3/Series/Seasons': list(YearlySeason),
  'GET /api/v3/Series/AniDB/Relations': paged(SeriesRelation),
  'GET /api/v3/Series/{seriesID}/Relations': list(SeriesRelation),
  'GET /api/v3/Series/{seriesID}/AniDB/Relations': list(SeriesRelation),
  'GET /api/v3/Series/AniDB/{anidbID}/Relations': list(SeriesRelation),
  'GET /api/v3/Series/AniDB/{anidbID}/Series': json(Series),
  'GET /api/v3/Series/{seriesID}/Episode': paged(Episode),
  'POST /api/v3/Series/{seriesID}/Episode/Watched': done,
  'POST /api/v3/Series/{seriesID}/Vote': noContent,
  'GET /api/v3/Series/{seriesID}/NextUpEpisode': { ...json(Episode), ...empty('The series has no next episode.', 204) },
  'POST /api/v3/Series/{seriesID}/OverrideTitle': done,
  'GET /api/v3/Series/{seriesID}/AutoMatchSettings': json(SeriesAutoMatchSettings),
  'PUT /api/v3/Series/{seriesID}/AutoMatchSettings': json(SeriesAutoMatchSettings),
  'PATCH /api/v3/Series/{seriesID}/AutoMatchSettings': json(SeriesAutoMatchSettings),
  'DELETE /api/v3/Series/{seriesID}/Images/{imageType}': noContent,
  'GET /api/v3/Series/WithoutFiles': paged(Series),
  'GET /api/v3/Series/WithManuallyLinkedFiles': paged(Series),

  // ---------------------------------------------------------------- episodes
  'GET /api/v3/Episode': paged(Episode),
  'GET /api/v3/Episode/AniDB': paged(AnidbEpisode),
  'GET /api/v3/Episode/AniDB/{anidbEpisodeID}': json(AnidbEpisode),
  'GET /api/v3/Episode/AniDB/{anidbEpisodeID}/Episode': json(Episode),
  'GET /api/v3/Episode/WithNoFiles': paged(Episode),
  'GET /api/v3/Episode/{episodeID}/AniDB': json(AnidbEpisode),
  'GET /api/v3/Episode/{episodeID}/Series': json(Series),
  'GET /api/v3/Episode/{episodeID}': json(Episode),
  'DELETE /api/v3/Episode/{episodeID}/Images/{imageType}': noContent,
  'POST /api/v3/Episode/{episodeID}/OverrideTitle': done,
  'POST /api/v3/Episode/{episodeID}/Vote': noContent,
  'POST /api/v3/Episode/{episodeID}/Watched/{watched}': done,
  'POST /api/v3/Episode/{episodeID}/SetHidden': done,
  'POST /api/v3/Episode/{episodeID}/TMDB/Movie': noContent,
  'DELETE /api/v3/Episode/{episodeID}/TMDB/Movie': noContent,

  // ---------------------------------------------------------------- series page, AniDB anime, images
  'GET /api/v3/File/{fileID}/MediaInfo': json(MediaInfo),
  'GET /api/v3/AVDump/Status': json(AVDumpStatus),
  'GET /api/v3/Image/Random/{imageType}/Metadata': json(RandomImageMetadata),
  'GET /api/v3/Series/AniDB/Search': paged(AnidbAnimeHit),
  'GET /api/v3/Series/AniDB/Search/{query}': paged(AnidbAnimeHit),
  'GET /api/v3/Series/AniDB/{anidbID}': json(AnidbAnimeHit),
  'GET /api/v3/Series/AniDB': paged(AnidbAnimeHit),
  'GET /api/v3/Series/{seriesID}/AniDB': json(AnidbAnimeHit),
  'GET /api/v3/Series/{seriesID}/AniDB/Related': list(RelatedAnime),
  'GET /api/v3/Series/{seriesID}/AniDB/Similar': list(RelatedAnime),
  'GET /api/v3/Series/AniDB/{anidbID}/Related': list(RelatedAnime),
  'GET /api/v3/Series/AniDB/{anidbID}/Similar': list(RelatedAnime),
  'GET /api/v3/Series/{seriesID}/Cast': list(Role),
  'GET /api/v3/WebUI/Series/{seriesID}': json(WebUISeriesExtra),
  'GET /api/v3/WebUI/Series/{seriesID}/FileSummary': json(SeriesFileSummary),
  'GET /api/v3/WebUI/Series/{seriesID}/Overview': json(WebUISeriesOverview),
  'GET /api/v3/Series/{seriesID}/Images': json(Images),
  'GET /api/v3/Series/{seriesID}/Images/{imageType}': json(CollectionImage),
  'PUT /api/v3/Series/{seriesID}/Images/{imageType}': json(CollectionImage),
  'GET /api/v3/Episode/{episodeID}/Images': json(Episode.properties.Images),
  'GET /api/v3/Episode/{episodeID}/Images/{imageType}': {
    ...json(CollectionImage),
    ...empty('The episode has no image of the type.', 204),
  },
  'PUT /api/v3/Episode/{episodeID}/Images/{imageType}': json(CollectionImage),
  'GET /api/v3/Series/{seriesID}/TMDB/Season': list(TmdbSeason),

  // ---------------------------------------------------------------- dashboard
  'GET /api/v3/Dashboard/Stats': json(DashboardCollectionStats),
  'GET /api/v3/Dashboard/SeriesSummary': json(DashboardSeriesSummary),
  'GET /api/v3/Dashboard/RecentlyAddedEpisodes': paged(DashboardEpisode),
  'GET /api/v3/Dashboard/RecentlyAddedSeries': paged(Series),
  'GET /api/v3/Dashboard/ContinueWatchingEpisodes': paged(DashboardEpisode),
  'GET /api/v3/Dashboard/NextUpEpisodes': paged(DashboardEpisode),
  'GET /api/v3/Dashboard/AniDBCalendar': list(DashboardEpisode),
  'GET /api/v3/Dashboard/CalendarEpisodes': list(DashboardEpisode),
  'GET /api/v3/Dashboard/TopTags': list(Tag),
  'GET /api/v3/Series/AniDB/RecommendedForYou': paged(AnidbAnimeRecommendedForYou),

  // ---------------------------------------------------------------- release management
  ...Object.fromEntries(
    (['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes'] as const).flatMap((type) => [
      [`GET /api/v3/ReleaseManagement/${type}/Series`, paged(SeriesWithEpisodeCount)],
      [`GET /api/v3/ReleaseManagement/${type}/Episodes`, paged(ReleaseEpisode)],
      [`GET /api/v3/ReleaseManagement/${type}/Series/{seriesID}/Episodes`, paged(ReleaseEpisode)],
    ]),
  ),
  'GET /api/v3/ReleaseManagement/Series': paged(SeriesWithEpisodeCount),
  'GET /api/v3/ReleaseManagement/Series/{seriesID}': paged(ReleaseEpisode),
  'GET /api/v3/ReleaseManagement/Episodes': paged(ReleaseEpisode),
  'GET /api/v3/ReleaseManagement/MultipleReleases/FilesToDelete': list(Type.Integer()),
  'GET /api/v3/ReleaseManagement/MultipleReleases/Series/{seriesID}/FilesToDelete': list(Type.Integer()),
  'GET /api/v3/ReleaseManagement/Series/{seriesID}/Episode/FilesToDelete': list(Type.Integer()),
  'GET /api/v3/ReleaseManagement/Episode/FilesToDelete': list(Type.Integer()),
  'GET /api/v3/ReleaseManagement/DuplicateFiles/FileLocationsToAutoRemove': list(FileIdSet),
  'GET /api/v3/ReleaseManagement/DuplicateFiles/Series/{seriesID}/FileLocationsToAutoRemove': list(FileIdSet),

  // ---------------------------------------------------------------- TMDB
  'POST /api/v3/Tmdb/Export': { 200: { description: 'The cross-references as CSV.', content: { 'text/csv': { schema: Type.String() } } } },
  'POST /api/v3/Tmdb/Import': noContent,
  'POST /api/v3/Tmdb/Show/{showID}/Action/Refresh': doneOrQueued,
  'POST /api/v3/Tmdb/Movie/{movieID}/Action/Refresh': doneOrQueued,
  'POST /api/v3/Tmdb/Show/{showID}/Action/DownloadImages': doneOrQueued,
  'POST /api/v3/Tmdb/Movie/{movieID}/Action/DownloadImages': doneOrQueued,
  'POST /api/v3/Series/{seriesID}/TMDB/Show/Action/DownloadImages': doneOrQueued,
  'POST /api/v3/Series/{seriesID}/TMDB/Movie/Action/DownloadImages': doneOrQueued,
  'POST /api/v3/Series/{seriesID}/TMDB/Show/Action/Refresh': doneOrQueued,
  'POST /api/v3/Series/{seriesID}/TMDB/Movie/Action/Refresh': doneOrQueued,
  'DELETE /api/v3/Tmdb/Show/{showID}': noContent,
  'DELETE /api/v3/Tmdb/Movie/{movieID}': noContent,
  'POST /api/v3/Tmdb/Show/{showID}/Ordering/SetPreferred': done,
  'POST /api/v3/Series/{seriesID}/TMDB/Action/AutoSearch': noContent,
  'POST /api/v3/Series/{seriesID}/TMDB/Show': noContent,
  'DELETE /api/v3/Series/{seriesID}/TMDB/Show': noContent,
  'POST /api/v3/Series/{seriesID}/TMDB/Movie': noContent,
  'DELETE /api/v3/Series/{seriesID}/TMDB/Movie': noContent,
  'POST /api/v3/Series/{seriesID}/TMDB/Show/CrossReferences/Episode': noContent,
  'DELETE /api/v3/Series/{seriesID}/TMDB/Show/CrossReferences/Episode': noContent,
  'POST /api/v3/Series/{seriesID}/TMDB/Show/CrossReferences/Episode/Auto': {
    ...empty('The matching was queued.', 201),
    ...empty('Nothing to match.', 204),
  },
  'GET /api/v3/Tmdb/Movie/{movieID}/Collection': json(TmdbMovieCollection),
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}': json(TmdbMovieCollection),
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Titles': list(TmdbTitle),
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Overviews': list(TmdbOverview),
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Images': json(Images),
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Movie': list(TmdbMovie),
  // What a TMDB movie, show, season or episode is linked to, read as the AniDB and Shoko routes answer each entry.
  ...Object.fromEntries(
    (
      [
        ['Movie/{movieID}', 'AniDB/Episode'],
        ['Show/{showID}', 'AniDB/Episode'],
        ['Season/{seasonID}', 'AniDB/Episode'],
        ['Episode/{episodeID}', 'Anidb/Episode'],
      ] as const
    ).flatMap(([entry, anidbEpisode]) => [
      [`GET /api/v3/Tmdb/${entry}/AniDB/Anime`, list(AnidbAnimeHit)],
      [`GET /api/v3/Tmdb/${entry}/${anidbEpisode}`, list(AnidbEpisode)],
      [`GET /api/v3/Tmdb/${entry}/Shoko/Series`, list(Series)],
      [`GET /api/v3/Tmdb/${entry}/Shoko/Episode`, list(Episode)],
    ]),
  ),
  'DELETE /api/v3/Renamer/Config/{configName}': done,

  // ---------------------------------------------------------------- Trakt and Plex
  'GET /api/trakt/sync': { ...json(ApiV2Message), ...empty('Trakt is not linked; nothing was queued.', 204) },
  'POST /api/v3/Series/{seriesID}/Trakt/SendWatchStates': done,
  'POST /api/v3/Series/{seriesID}/Trakt/GetWatchStates': done,
  'GET /plex/loginurl': text('The app.plex.tv address where the caller approves the login.'),
  'POST /plex/server': done,
  'POST /plex/libraries': done,
  'GET /plex/sync': done,
  'GET /plex/sync/all': done,
  'GET /plex/sync/{id}': done,
  'POST /plex': done,
  'POST /plex.json': done,

  // ---------------------------------------------------------------- console themes and updates
  'GET /api/v3/WebUI/Theme.css': css('The stylesheet of every installed theme.'),
  'GET /api/v3/WebUI/Theme/{themeID}': {
    200: {
      description: 'The theme; its stylesheet alone when the id ends in `.css`.',
      content: { 'application/json': { schema: WebUITheme }, 'text/css': { schema: Type.String() } },
    },
  },
  'DELETE /api/v3/WebUI/Theme/{themeID}': noContent,
  // Install answers with a redirect to the new console (or an error); it never answers 2xx.
  'POST /api/v3/WebUI/Install': installed,
  'GET /api/v3/WebUI/Install': installed,
  'POST /api/v3/WebUI/Update': noContent,
  'GET /api/v3/WebUI/Update': noContent,
  // The legacy v2 config module is gone: both stubs always answer 400 with the v2 message.
  'GET /api/webui/config': json(ApiV2Message, 400),
  'POST /api/webui/config': json(ApiV2Message, 400),

  // ---------------------------------------------------------------- tags
  'GET /api/v3/Series/{seriesID}/Tags': list(Tag),
  'GET /api/v3/Series/{seriesID}/Tags/User': list(Tag),
  'POST /api/v3/Series/{seriesID}/Tags/User': { ...empty('Tags were added.', 201), ...empty('Nothing changed.', 204) },
  'DELETE /api/v3/Series/{seriesID}/Tags/User': { ...empty('Tags were removed.'), ...empty('Nothing changed.', 204) },
  'GET /api/v3/Tag/User': paged(Tag),
  'POST /api/v3/Tag/User': json(Tag),
  'GET /api/v3/Tag/User/{tagID}': json(Tag),
  'PUT /api/v3/Tag/User/{tagID}': json(Tag),
  'PATCH /api/v3/Tag/User/{tagID}': json(Tag),
  'DELETE /api/v3/Tag/User/{tagID}': noContent,
  'GET /api/v3/Tag/AniDB': paged(Tag),
  'GET /api/v3/Tag/AniDB/{tagID}': json(Tag),
};

const ACTION_PREFIX = 'GET /api/v3/Action/';
const actionAnswer: Responses = {
  200: { description: 'The action was queued (empty body), or its outcome as text.', content: { 'text/plain': { schema: Type.String() } } },
};

/** The answers to document for a route: its own response schemas, or the ones described here. */
export function documentedResponses(key: string): Responses | undefined {
  return DOCUMENTED_RESPONSES[key] ?? (key.startsWith(ACTION_PREFIX) ? actionAnswer : undefined);
}

/** A Fastify route URL as the document spells it (`:id` → `{id}`, a trailing wildcard → `{*}`). */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{*}');

/**
 * The `transform` of @fastify/swagger: a route without response schemas is documented with the answers described
 * above. Only the generated document sees them; the route itself is untouched.
 */
export function documentResponses({ schema, url, route }: { schema: unknown; url: string; route: { method: string | string[] } }) {
  const routeSchema = (schema ?? {}) as Record<string, unknown>;
  if (routeSchema.response) return { schema: routeSchema, url };
  const method = [route.method].flat().find((m) => m !== 'HEAD') ?? 'HEAD';
  const responses = documentedResponses(`${method} ${openApiPath(url)}`);
  return { schema: responses ? { ...routeSchema, response: responses } : routeSchema, url };
}
