import type { ShokoCollection } from './collection.js';
import { shokoMediaBlob } from './media-blob.js';
import { bit, type RowWriter } from './row-writer.js';
import { shokoDate, shokoDateTime, shokoDateTimeOrNull, shokoPasswordHash } from './values.js';

/** Shoko's own tables about the library: users and their keys, import folders, files and where they are, the links. */
export function writeLibraryRows(writer: RowWriter, collection: ShokoCollection, now: Date): void {
  for (const user of collection.users) {
    writer.insert('JMMUser', {
      JMMUserID: user.id,
      Username: user.name,
      Password: shokoPasswordHash(user.password),
      IsAdmin: bit(user.isAdmin),
      IsAniDBUser: bit(user.isAdmin),
      IsTraktUser: bit(user.isAdmin),
      HideCategories: user.hiddenTags.join(','),
      CanEditServerSettings: bit(user.isAdmin),
      PlexUsers: user.plexUsers.length ? user.plexUsers.join(',') : null,
      PlexToken: user.plexToken,
      AvatarImageBlob: user.avatar?.bytes ?? null,
      AvatarImageMetadata: user.avatar
        ? JSON.stringify({ ContentType: user.avatar.contentType, Width: user.avatar.width, Height: user.avatar.height })
        : null,
    });
    for (const key of user.apiKeys) writer.insert('AuthTokens', { UserID: user.id, DeviceName: key.deviceName, Token: key.token });
  }

  for (const folder of collection.importFolders) {
    writer.insert('ImportFolder', {
      ImportFolderID: folder.id,
      ImportFolderType: 1,
      ImportFolderName: folder.name,
      ImportFolderLocation: folder.shokoPath,
      IsDropSource: bit(folder.dropSource),
      IsDropDestination: bit(folder.dropDestination),
      CloudID: null,
      IsWatched: bit(folder.watched),
    });
  }

  // Identical samples make identical blobs (the large folder reuses a dozen), and building one is not cheap.
  const blobs = new Map<string, ReturnType<typeof shokoMediaBlob>>();
  for (const file of collection.files) {
    const sampleKey = JSON.stringify(file.media);
    const media = blobs.get(sampleKey) ?? shokoMediaBlob(file.media);
    blobs.set(sampleKey, media);
    writer.insert('VideoLocal', {
      VideoLocalID: file.id,
      Hash: file.ed2k,
      CRC32: file.crc32,
      MD5: file.md5,
      SHA1: file.sha1,
      HashSource: 1,
      FileSize: file.size,
      IsIgnored: bit(file.ignored),
      DateTimeUpdated: shokoDateTime(file.importedAt ?? file.createdAt, true),
      FileName: file.fileName,
      DateTimeCreated: shokoDateTime(file.createdAt),
      MediaVersion: media.version,
      MediaBlob: media.blob,
      MyListID: file.anidbFileId === null ? 0 : 300_000_000 + file.id,
      IsVariation: bit(file.variation),
      DateTimeImported: shokoDateTimeOrNull(file.importedAt, true),
      LastAVDumped: null,
      LastAVDumpVersion: null,
    });
    for (const location of file.locations) {
      writer.insert('VideoLocal_Place', {
        VideoLocal_Place_ID: location.id,
        VideoLocalID: file.id,
        FilePath: location.relativePath,
        ImportFolderID: location.importFolderId,
        ImportFolderType: 1,
      });
    }
    for (const link of file.episodeLinks) {
      writer.insert('CrossRef_File_Episode', {
        Hash: file.ed2k,
        FileName: file.fileName,
        FileSize: file.size,
        CrossRefSource: link.source === 'User' ? 2 : 1,
        AnimeID: link.animeId,
        EpisodeID: link.episodeId,
        Percentage: link.percentage,
        EpisodeOrder: link.order,
      });
    }
  }
  writeCollectionRows(writer, collection, now);
}

/** Groups, series and episodes, with the figures Shoko keeps on them (missing episodes, latest dates). */
function writeCollectionRows(writer: RowWriter, collection: ShokoCollection, now: Date): void {
  const today = now.toISOString().slice(0, 10);
  const animeById = new Map(collection.anime.map((anime) => [anime.id, anime]));
  const importedByEpisode = new Map<number, Date>();
  for (const file of collection.files) {
    for (const link of file.episodeLinks) {
      const previous = importedByEpisode.get(link.episodeId);
      const imported = file.importedAt ?? file.createdAt;
      if (!previous || imported > previous) importedByEpisode.set(link.episodeId, imported);
    }
  }
  const hiddenEpisodes = new Set(collection.episodes.filter((episode) => episode.hidden).map((episode) => episode.anidbEpisodeId));

  interface Figures {
    missing: number;
    hiddenMissing: number;
    latestAirDate: string | null;
    episodeAdded: Date | null;
    latestLocal: number;
  }
  const seriesFigures = new Map<number, Figures>();
  for (const series of collection.series) {
    const anime = animeById.get(series.animeId)!;
    const figures: Figures = { missing: 0, hiddenMissing: 0, latestAirDate: null, episodeAdded: null, latestLocal: 0 };
    for (const episode of anime.episodes) {
      const aired = episode.airDate !== null && episode.airDate <= today;
      if (aired && (figures.latestAirDate === null || episode.airDate! > figures.latestAirDate)) figures.latestAirDate = episode.airDate;
      const added = importedByEpisode.get(episode.id);
      if (added && (!figures.episodeAdded || added > figures.episodeAdded)) figures.episodeAdded = added;
      if (episode.type !== 1) continue;
      if (added) figures.latestLocal = Math.max(figures.latestLocal, episode.number);
      else if (aired && hiddenEpisodes.has(episode.id)) figures.hiddenMissing++;
      else if (aired) figures.missing++;
    }
    seriesFigures.set(series.id, figures);
  }

  const created = (id: number) => new Date(now.getTime() - (60 - (id % 50)) * 86_400_000);
  const figuresOfGroup = new Map<number, Figures[]>();
  const childGroups = new Map<number, number[]>();
  for (const series of collection.series)
    figuresOfGroup.set(series.groupId, [...(figuresOfGroup.get(series.groupId) ?? []), seriesFigures.get(series.id)!]);
  for (const group of collection.groups) {
    if (group.parentId !== null) childGroups.set(group.parentId, [...(childGroups.get(group.parentId) ?? []), group.id]);
  }
  // A group's figures cover its subgroups' series too.
  const allFiguresOf = (groupId: number): Figures[] => [
    ...(figuresOfGroup.get(groupId) ?? []),
    ...(childGroups.get(groupId) ?? []).flatMap(allFiguresOf),
  ];
  for (const group of collection.groups) {
    const members = allFiguresOf(group.id);
    const latest = <T extends string | Date>(values: Array<T | null>): T | null =>
      values.reduce<T | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
    writer.insert('AnimeGroup', {
      AnimeGroupID: group.id,
      AnimeGroupParentID: group.parentId,
      GroupName: group.name,
      Description: group.description,
      IsManuallyNamed: bit(group.customName),
      DateTimeUpdated: shokoDateTime(now, true),
      DateTimeCreated: shokoDateTime(created(group.id)),
      MissingEpisodeCount: members.reduce((sum, one) => sum + one.missing, 0),
      MissingEpisodeCountGroups: 0,
      OverrideDescription: bit(group.description !== null),
      EpisodeAddedDate: shokoDateTimeOrNull(latest(members.map((one) => one.episodeAdded))),
      DefaultAnimeSeriesID: group.defaultSeriesId,
      LatestEpisodeAirDate: shokoDate(latest(members.map((one) => one.latestAirDate))),
      MainAniDBAnimeID: group.mainAnimeId,
    });
  }
  for (const series of collection.series) {
    const figures = seriesFigures.get(series.id)!;
    writer.insert('AnimeSeries', {
      AnimeSeriesID: series.id,
      AnimeGroupID: series.groupId,
      AniDB_ID: series.animeId,
      DateTimeUpdated: shokoDateTime(now),
      DateTimeCreated: shokoDateTime(created(series.id)),
      DefaultAudioLanguage: null,
      DefaultSubtitleLanguage: null,
      MissingEpisodeCount: figures.missing,
      MissingEpisodeCountGroups: 0,
      LatestLocalEpisodeNumber: figures.latestLocal,
      EpisodeAddedDate: shokoDateTimeOrNull(figures.episodeAdded),
      SeriesNameOverride: series.titleOverride,
      DefaultFolder: null,
      LatestEpisodeAirDate: shokoDate(figures.latestAirDate),
      AirsOn: null,
      UpdatedAt: shokoDateTime(now, true),
      DisableAutoMatchFlags: 0,
      HiddenMissingEpisodeCount: figures.hiddenMissing,
      HiddenMissingEpisodeCountGroups: 0,
    });
  }
  for (const episode of collection.episodes) {
    writer.insert('AnimeEpisode', {
      AnimeEpisodeID: episode.id,
      AnimeSeriesID: episode.seriesId,
      AniDB_EpisodeID: episode.anidbEpisodeId,
      DateTimeUpdated: shokoDateTime(now),
      DateTimeCreated: shokoDateTime(created(episode.seriesId)),
      IsHidden: bit(episode.hidden),
      EpisodeNameOverride: episode.titleOverride,
    });
  }

  for (const tag of collection.customTags) {
    writer.insert('CustomTag', { CustomTagID: tag.id, TagName: tag.name, TagDescription: tag.description });
    for (const animeId of tag.animeIds) writer.insert('CrossRef_CustomTag', { CustomTagID: tag.id, CrossRefID: animeId, CrossRefType: 1 });
  }
  for (const ignored of collection.ignoredAnime) {
    writer.insert('IgnoreAnime', { JMMUserID: ignored.userId, AnimeID: ignored.animeId, IgnoreType: ignored.ignoreType });
  }
}
