import { APPEARANCE_TYPES, creatorRoleType, RELATION_NAMES } from './anidb-catalog.js';
import { ANIME_TYPES, mainTitleOf, type AnimeSpec, type ShokoCollection } from './collection.js';
import { bit, type RowWriter } from './row-writer.js';
import { shokoDate, shokoDateTime, unixSecondsOfDay } from './values.js';

/** AniDB's tables: anime, titles, episodes, tags, relations, characters, creators, release groups, files, votes. */
export function writeAniDBRows(writer: RowWriter, collection: ShokoCollection, now: Date): void {
  const tags = new Map(collection.tags.map((tag) => [tag.id, tag]));
  for (const anime of collection.anime) writeAnime(writer, anime, tags);

  for (const tag of collection.tags) {
    writer.insert('AniDB_Tag', {
      TagID: tag.id,
      GlobalSpoiler: bit(tag.globalSpoiler),
      TagName: tag.name,
      TagDescription: tag.description,
      Verified: bit(tag.verified),
      ParentTagID: tag.parentId,
      TagNameOverride: null,
      LastUpdated: shokoDateTime(new Date(now.getTime() - 30 * 86_400_000)),
    });
  }
  writeCharactersAndCreators(writer, collection, now);

  for (const group of collection.releaseGroups) {
    const files = collection.files.filter((file) => file.releaseGroupId === group.id);
    writer.insert('AniDB_ReleaseGroup', {
      GroupID: group.id,
      Rating: 812,
      Votes: 37,
      AnimeCount: new Set(files.flatMap((file) => file.episodeLinks.map((link) => link.animeId))).size,
      FileCount: files.length,
      GroupName: group.name,
      GroupNameShort: group.shortName,
      IRCChannel: `#${group.shortName.toLowerCase()}`,
      IRCServer: 'irc.example.test',
      URL: `https://example.test/groups/${group.id}`,
      Picname: '',
    });
  }

  const airDates = new Map(collection.anime.flatMap((anime) => anime.episodes.map((episode) => [episode.id, episode.airDate] as const)));
  for (const file of collection.files) {
    if (file.anidbCheckedAt) {
      writer.insert('AniDB_FileUpdate', {
        FileSize: file.size,
        Hash: file.ed2k,
        HasResponse: bit(file.anidbFileId !== null),
        UpdatedAt: shokoDateTime(file.anidbCheckedAt, true),
      });
    }
    if (file.anidbFileId === null) continue;
    const firstAired = airDates.get(file.episodeLinks[0]?.episodeId ?? -1) ?? null;
    writer.insert('AniDB_File', {
      FileID: file.anidbFileId,
      Hash: file.ed2k,
      GroupID: file.releaseGroupId ?? 0,
      File_Source: file.anidbSource,
      File_Description: '',
      File_ReleaseDate: firstAired ? unixSecondsOfDay(firstAired) + 3 * 86_400 : 0,
      DateTimeUpdated: shokoDateTime(file.anidbCheckedAt ?? now, true),
      FileName: file.fileName,
      FileSize: file.size,
      FileVersion: 1,
      InternalVersion: 3,
      IsDeprecated: 0,
      IsCensored: 0,
      IsChaptered: bit((file.media.chapters?.length ?? 0) > 0),
    });
    for (const language of file.audioLanguages) {
      writer.insert('CrossRef_Languages_AniDB_File', { FileID: file.anidbFileId, LanguageName: language });
    }
    for (const language of file.subtitleLanguages) {
      writer.insert('CrossRef_Subtitles_AniDB_File', { FileID: file.anidbFileId, LanguageName: language });
    }
  }

  for (const vote of collection.votes) writer.insert('AniDB_Vote', { EntityID: vote.entityId, VoteValue: vote.value, VoteType: vote.type });
}

function writeAnime(writer: RowWriter, anime: AnimeSpec, tags: Map<number, { name: string; verified: boolean }>): void {
  const regular = anime.episodes.filter((episode) => episode.type === 1);
  const updated = shokoDateTime(anime.updatedAt);
  const { permanent, temporary, review } = anime.ratings;
  writer.insert('AniDB_Anime', {
    AnimeID: anime.id,
    EpisodeCount: regular.length,
    AirDate: shokoDate(anime.startDate),
    EndDate: shokoDate(anime.endDate),
    URL: anime.url,
    Picname: anime.picture,
    BeginYear: anime.startDate ? Number(anime.startDate.slice(0, 4)) : 0,
    EndYear: anime.endDate ? Number(anime.endDate.slice(0, 4)) : 0,
    AnimeType: ANIME_TYPES[anime.typeText],
    MainTitle: mainTitleOf(anime),
    AllTitles: anime.titles.map((title) => title.value).join('|'),
    AllTags: anime.tags
      .map((link) => tags.get(link.id)!)
      .filter((tag) => tag.verified)
      .map((tag) => tag.name)
      .join('|'),
    Description: anime.description,
    EpisodeCountNormal: regular.length,
    EpisodeCountSpecial: anime.episodes.filter((episode) => episode.type === 3).length,
    Rating: Math.round(permanent[0] * 100),
    VoteCount: permanent[1],
    TempRating: Math.round(temporary[0] * 100),
    TempVoteCount: temporary[1],
    AvgReviewRating: review ? Math.round(review[0] * 100) : 0,
    ReviewCount: review ? review[1] : 0,
    DateTimeUpdated: updated,
    DateTimeDescUpdated: updated,
    ImageEnabled: 1,
    Restricted: bit(anime.restricted),
    ANNID: anime.resources.annId ?? null,
    AllCinemaID: anime.resources.allCinemaId ?? null,
    LatestEpisodeNumber: regular.at(-1)?.number ?? 0,
    Site_JP: anime.resources.siteJp ?? null,
    Site_EN: null,
    Wikipedia_ID: anime.resources.wikipediaEn ?? null,
    WikipediaJP_ID: null,
    SyoboiID: anime.resources.syoboiId ?? null,
    AnisonID: null,
    CrunchyrollID: null,
    VNDBID: null,
    BangumiID: null,
    FunimationID: null,
    HiDiveID: null,
    LainID: null,
  });
  writer.insert('AniDB_AnimeUpdate', { AnimeID: anime.id, UpdatedAt: shokoDateTime(anime.updatedAt, true) });
  for (const title of anime.titles) {
    writer.insert('AniDB_Anime_Title', { AnimeID: anime.id, TitleType: title.type, Language: title.language, Title: title.value });
  }
  for (const episode of anime.episodes) {
    writer.insert('AniDB_Episode', {
      EpisodeID: episode.id,
      AnimeID: anime.id,
      LengthSeconds: episode.lengthMinutes * 60,
      Rating: episode.rating.toFixed(2),
      Votes: String(episode.votes),
      EpisodeNumber: episode.number,
      EpisodeType: episode.type,
      AirDate: unixSecondsOfDay(episode.airDate),
      DateTimeUpdated: updated,
      Description: episode.summary,
    });
    for (const title of episode.titles) {
      writer.insert('AniDB_Episode_Title', { AniDB_EpisodeID: episode.id, Language: title.language, Title: title.value });
    }
  }
  for (const link of anime.tags) {
    writer.insert('AniDB_Anime_Tag', { AnimeID: anime.id, TagID: link.id, Weight: link.weight, LocalSpoiler: bit(link.localSpoiler) });
  }
  for (const relation of anime.relations) {
    writer.insert('AniDB_Anime_Relation', { AnimeID: anime.id, RelatedAnimeID: relation.id, RelationType: RELATION_NAMES[relation.type] });
  }
  for (const similar of anime.similar) {
    writer.insert('AniDB_Anime_Similar', {
      AnimeID: anime.id,
      SimilarAnimeID: similar.id,
      Approval: similar.approval,
      Total: similar.total,
    });
  }
}

/** Characters and creators changed shape at 5.1: 5.0 kept the appearance text and a character → seiyuu table. */
function writeCharactersAndCreators(writer: RowWriter, collection: ShokoCollection, now: Date): void {
  const modern = writer.shape === 'v5.3';
  const creators = new Map(collection.creators.map((creator) => [creator.id, creator]));
  const usedCharacters = new Set(collection.anime.flatMap((anime) => anime.characters.map((character) => character.id)));
  const seiyuuOf = new Map<number, Set<number>>();
  for (const character of collection.characters) {
    if (!usedCharacters.has(character.id)) continue;
    if (modern) {
      writer.insert('AniDB_Character', {
        CharacterID: character.id,
        Name: character.name,
        OriginalName: character.originalName,
        Description: character.description,
        ImagePath: character.picture,
        Gender: character.gender === 'female' ? 1 : 2,
        Type: character.kind === 'Character' ? 1 : 3,
        LastUpdated: shokoDateTime(now),
      });
    } else {
      writer.insert('AniDB_Character', {
        CharID: character.id,
        CharName: character.name,
        PicName: character.picture,
        CharKanjiName: character.originalName,
        CharDescription: character.description,
      });
    }
  }
  for (const anime of collection.anime) {
    for (const [ordering, link] of anime.characters.entries()) {
      if (modern) {
        writer.insert('AniDB_Anime_Character', {
          AnimeID: anime.id,
          CharacterID: link.id,
          Appearance: link.appearance,
          AppearanceType: APPEARANCE_TYPES[link.appearance] ?? 0,
          Ordering: ordering,
        });
      } else {
        writer.insert('AniDB_Anime_Character', { AnimeID: anime.id, CharID: link.id, CharType: link.appearance });
      }
      for (const [actorOrdering, creatorId] of link.seiyuuIds.entries()) {
        if (modern) {
          writer.insert('AniDB_Anime_Character_Creator', {
            AnimeID: anime.id,
            CharacterID: link.id,
            CreatorID: creatorId,
            Ordering: actorOrdering,
          });
          continue;
        }
        const seen = seiyuuOf.get(link.id) ?? new Set<number>();
        if (seen.has(creatorId)) continue;
        seen.add(creatorId);
        seiyuuOf.set(link.id, seen);
        writer.insert('AniDB_Character_Creator', { CharacterID: link.id, CreatorID: creatorId });
      }
    }
    for (const [ordering, staff] of anime.staff.entries()) {
      const company = creators.get(staff.creatorId)?.kind === 'Company';
      if (modern) {
        writer.insert('AniDB_Anime_Staff', {
          AnimeID: anime.id,
          CreatorID: staff.creatorId,
          Role: staff.role,
          RoleType: creatorRoleType(staff.role, company),
          Ordering: ordering,
        });
      } else {
        writer.insert('AniDB_Anime_Staff', { AnimeID: anime.id, CreatorID: staff.creatorId, CreatorType: staff.role });
      }
    }
  }
  for (const creator of collection.creators) {
    writer.insert('AniDB_Creator', {
      CreatorID: creator.id,
      Name: creator.name,
      OriginalName: creator.originalName,
      Type: creator.kind === 'Person' ? 1 : 2,
      ImagePath: creator.picture,
      EnglishHomepageUrl: null,
      JapaneseHomepageUrl: null,
      EnglishWikiUrl: null,
      JapaneseWikiUrl: null,
      LastUpdatedAt: shokoDateTime(now),
    });
  }
}
