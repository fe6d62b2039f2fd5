import type { Kysely } from 'kysely';
import type { AnidbHitTitle, CollectionImage, RelatedAnime, Role, RolePerson } from '@shoko-ts/contract';
import type { Database } from '../../db/schema.js';
import { anidbImage, animeType } from './series-browse.store.js';

const APPEARANCE: Record<string, string> = {
  'main character in': 'Main Character',
  'secondary cast in': 'Minor Character',
  'appears in': 'Background Character',
  'cameo appearance in': 'Cameo',
};

/** AniDB staff role text → CreatorRoleType. */
export function creatorRole(role: string): string {
  const text = role.toLowerCase();
  if (text === 'animation work' || text === 'work') return 'Studio';
  if (text === 'direction' || text === 'director' || text === 'chief direction') return 'Director';
  if (text === 'series composition') return 'SeriesComposer';
  if (text === 'character design') return 'CharacterDesign';
  if (text === 'music') return 'Music';
  if (text === 'original work' || text === 'story' || text === 'original story') return 'SourceWork';
  if (text.includes('producer')) return 'Producer';
  return 'Staff';
}

const RELATION: Record<string, string> = {
  sequel: 'Sequel',
  prequel: 'Prequel',
  'same setting': 'SameSetting',
  'alternative setting': 'AlternativeSetting',
  'alternative version': 'AlternativeVersion',
  character: 'SharedCharacters',
  'parent story': 'MainStory',
  'main story': 'MainStory',
  'full story': 'FullStory',
  'side story': 'SideStory',
  summary: 'Summary',
};
const INVERSE: Record<string, string> = {
  Sequel: 'Prequel',
  Prequel: 'Sequel',
  MainStory: 'SideStory',
  SideStory: 'MainStory',
  FullStory: 'Summary',
  Summary: 'FullStory',
};
export const relationType = (text: string) => RELATION[text.toLowerCase()] ?? 'Other';
/** The relation seen from the other anime (a sequel's prequel); symmetric relations stay as they are. */
export const inverseRelation = (type: string) => INVERSE[type] ?? type;

/** Title types of the AniDB anime XML and of the titles dump, as the API names them. */
const TITLE_TYPES: Record<string, string> = {
  main: 'Main',
  official: 'Official',
  synonym: 'Synonym',
  syn: 'Synonym',
  short: 'Short',
  card: 'TitleCard',
  kana: 'KanjiReading',
};

/** One AniDB title as the API shows it; the title the caller is shown (`shown`) is the Preferred one. */
export const anidbTitleModel = (title: { type: string; language: string; value: string }, shown: string | undefined): AnidbHitTitle => ({
  Name: title.value,
  Language: title.language,
  Type: TITLE_TYPES[title.type] ?? 'None',
  Default: title.type === 'main',
  Preferred: title.value === shown,
  Source: 'AniDB',
});

const poster = (animeId: number, picture: string | null): CollectionImage => ({
  ID: animeId,
  Type: 'Poster',
  Source: 'AniDB',
  LanguageCode: null,
  RelativeFilepath: picture ? `/${picture}` : null,
  Preferred: false,
  Disabled: false,
  Width: null,
  Height: null,
});

/** AniDB credits, relations and similar anime of a series' anime. */
export class DetailsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** §5.8 Cast: characters (with their voice actors) in AniDB order, then staff; `roleTypes` empty = all. */
  async cast(animeId: number, roleTypes: string[]): Promise<Role[]> {
    const wanted = (role: string) => !roleTypes.length || roleTypes.includes(role);
    const roles: Role[] = [];
    const staff = await this.db
      .selectFrom('anidb_anime_staff as s')
      .innerJoin('anidb_creators as c', 'c.id', 's.creator_id')
      .select(['s.creator_id', 's.role', 's.character_id', 's.ordering', 's.id', 'c.name', 'c.picture'])
      .where('s.anime_id', '=', animeId)
      .orderBy('s.ordering')
      .orderBy('s.id')
      .execute();
    const creator = (row: (typeof staff)[number], type: string): RolePerson => ({
      ID: row.creator_id,
      Type: type,
      Name: row.name,
      AlternateName: '',
      Description: '',
      Image: anidbImage(row.creator_id, 'Staff', row.picture),
    });
    if (wanted('Actor')) {
      const characters = await this.db
        .selectFrom('anidb_anime_characters as ac')
        .innerJoin('anidb_characters as ch', 'ch.id', 'ac.character_id')
        .select(['ch.id', 'ch.name', 'ch.description', 'ch.picture', 'ch.character_type', 'ac.appearance'])
        .where('ac.anime_id', '=', animeId)
        .orderBy('ac.ordering')
        .orderBy('ch.id')
        .execute();
      for (const ch of characters) {
        const character: RolePerson = {
          ID: ch.id,
          Name: ch.name,
          AlternateName: '',
          Description: ch.description ?? '',
          Image: anidbImage(ch.id, 'Character', ch.picture),
        };
        const actors = staff.filter((s) => s.character_id === ch.id);
        for (const actor of actors)
          roles.push({
            Character: character,
            Staff: creator(actor, 'Person'),
            RoleName: 'Actor',
            RoleDetails: APPEARANCE[ch.appearance.toLowerCase()] ?? 'Unknown',
          });
        if (!actors.length) {
          const organisation = (ch.character_type ?? '').toLowerCase().startsWith('organi');
          roles.push({
            Character: character,
            Staff: { ID: 0, Type: 'Unknown', Name: '', AlternateName: '', Description: '', Image: null },
            RoleName: 'Actor',
            RoleDetails: organisation ? 'Appears In' : (APPEARANCE[ch.appearance.toLowerCase()] ?? 'Unknown'),
          });
        }
      }
    }
    for (const row of staff) {
      if (row.character_id !== null) continue;
      const role = creatorRole(row.role);
      if (!wanted(role)) continue;
      roles.push({ Staff: creator(row, role === 'Studio' ? 'Company' : 'Person'), RoleName: role, RoleDetails: row.role });
    }
    return roles;
  }

  /** Local AniDB data of anime ids, falling back to the stored title for anime not in the database. */
  private async summaries(items: Array<{ id: number; title: string | null }>): Promise<Map<number, RelatedAnime>> {
    const ids = [...new Set(items.map((i) => i.id))];
    const result = new Map<number, RelatedAnime>();
    if (!ids.length) return result;
    const anime = new Map((await this.db.selectFrom('anidb_anime').selectAll().where('id', 'in', ids).execute()).map((a) => [a.id, a]));
    const series = new Map(
      (await this.db.selectFrom('series').select(['id', 'anime_id']).where('anime_id', 'in', ids).execute()).map((s) => [s.anime_id, s.id]),
    );
    const overrides = new Map(
      (
        await this.db
          .selectFrom('series')
          .select(['anime_id', 'title_override'])
          .where('anime_id', 'in', ids)
          .where('title_override', 'is not', null)
          .execute()
      ).map((s) => [s.anime_id, s.title_override!]),
    );
    for (const item of items) {
      if (result.has(item.id)) continue;
      const a = anime.get(item.id);
      if (a)
        result.set(item.id, {
          ID: a.id,
          ShokoID: series.get(a.id) ?? null,
          Type: animeType(a.type),
          Title: overrides.get(a.id) ?? a.main_title,
          Description: a.description ?? '',
          AirDate: a.air_date,
          EndDate: a.end_date,
          Restricted: a.restricted === 1,
          Poster: poster(a.id, a.picture),
          EpisodeCount: a.episode_count,
          Rating: { Value: a.rating, MaxValue: 1000, Source: 'AniDB', Votes: a.rating_votes, Type: null },
        });
      else
        result.set(item.id, {
          ID: item.id,
          ShokoID: null,
          Type: 'Unknown',
          Title: item.title ?? '',
          AirDate: null,
          EndDate: null,
          Restricted: false,
          Poster: poster(item.id, null),
          EpisodeCount: null,
        });
    }
    return result;
  }

  /**
   * §5.2 Related: relations in both directions (incoming ones inverted), ordered by base id, related id, type;
   * `forwardOnly` keeps the anime's own relations only (Series/AniDB/{anidbID}/Related).
   */
  async related(animeId: number, forwardOnly = false): Promise<RelatedAnime[]> {
    const outgoing = await this.db.selectFrom('anidb_relations').selectAll().where('anime_id', '=', animeId).execute();
    const incoming = forwardOnly
      ? []
      : await this.db.selectFrom('anidb_relations').selectAll().where('related_anime_id', '=', animeId).execute();
    const entries = new Map<string, { base: number; id: number; type: string; title: string | null }>();
    for (const r of outgoing) {
      const type = relationType(r.relation_type);
      entries.set(`${r.related_anime_id}:${type}`, { base: animeId, id: r.related_anime_id, type, title: r.related_title });
    }
    for (const r of incoming) {
      const forward = relationType(r.relation_type);
      const type = INVERSE[forward] ?? forward;
      if (!entries.has(`${r.anime_id}:${type}`))
        entries.set(`${r.anime_id}:${type}`, { base: r.anime_id, id: r.anime_id, type, title: null });
    }
    const list = [...entries.values()].sort((a, b) => a.base - b.base || a.id - b.id || a.type.localeCompare(b.type));
    const summaries = await this.summaries(list);
    return list.map((e) => ({ ...summaries.get(e.id)!, Relation: e.type }));
  }

  /** Stored AniDB anime in the AnidbAnime model, in the order of `ids` (ids not stored are skipped), with their titles. */
  async animeModels(ids: number[]): Promise<Array<RelatedAnime & { Titles: AnidbHitTitle[] }>> {
    if (!ids.length) return [];
    const summaries = await this.summaries(ids.map((id) => ({ id, title: null })));
    const titles = new Map<number, AnidbHitTitle[]>();
    const rows = await this.db
      .selectFrom('anidb_anime_titles')
      .select(['anime_id', 'type', 'language', 'value'])
      .where('anime_id', 'in', ids)
      .execute();
    for (const row of rows) {
      const list = titles.get(row.anime_id) ?? [];
      list.push(anidbTitleModel(row, summaries.get(row.anime_id)?.Title));
      titles.set(row.anime_id, list);
    }
    return ids.flatMap((id) => {
      const model = summaries.get(id);
      return model && model.Description !== undefined ? [{ ...model, Titles: titles.get(id) ?? [] }] : [];
    });
  }

  /** §5.2 Similar: AniDB's similar anime with the approval percentage. */
  async similar(animeId: number): Promise<RelatedAnime[]> {
    const rows = await this.db
      .selectFrom('anidb_similar')
      .selectAll()
      .where('anime_id', '=', animeId)
      .orderBy('approval', 'desc')
      .orderBy('similar_anime_id')
      .execute();
    const summaries = await this.summaries(rows.map((r) => ({ id: r.similar_anime_id, title: r.title })));
    return rows.map((r) => ({
      ...summaries.get(r.similar_anime_id)!,
      UserApproval: {
        Value: r.total ? Math.round((r.approval / r.total) * 10000) / 100 : 0,
        MaxValue: 100,
        Source: 'AniDB',
        Votes: r.total,
        Type: 'User Approval',
      },
    }));
  }

  /** WebUISeriesExtra without SourceMaterial (that one needs the tag tree). */
  async seriesExtras(animeId: number) {
    const anime = await this.db.selectFrom('anidb_anime').select(['type', 'air_date']).where('id', '=', animeId).executeTakeFirst();
    const normal = await this.db
      .selectFrom('anidb_episodes')
      .select(['number', 'length_seconds'])
      .where('anime_id', '=', animeId)
      .where('type', '=', 'Episode')
      .orderBy('number')
      .execute();
    const middle = normal.length ? normal[Math.floor((normal.length - 1) / 2)] : null;
    const type = animeType(anime?.type);
    const airDate = anime?.air_date ?? null;
    const firstAirSeason =
      airDate && (type === 'TV' || type === 'Web')
        ? `${SEASONS[Math.floor((Number(airDate.slice(5, 7)) - 1) / 3)]} ${airDate.slice(0, 4)}`
        : null;
    const staff = await this.db
      .selectFrom('anidb_anime_staff as s')
      .innerJoin('anidb_creators as c', 'c.id', 's.creator_id')
      .select(['s.creator_id', 's.role', 'c.name', 'c.picture'])
      .where('s.anime_id', '=', animeId)
      .where('s.character_id', 'is', null)
      .orderBy('s.ordering')
      .execute();
    const people = (role: string, type: string): RolePerson[] =>
      staff
        .filter((s) => creatorRole(s.role) === role)
        .map((s) => ({
          ID: s.creator_id,
          Type: type,
          Name: s.name,
          AlternateName: '',
          Description: '',
          Image: anidbImage(s.creator_id, 'Staff', s.picture),
        }));
    return {
      RuntimeLength: middle && middle.length_seconds > 0 ? middle.length_seconds : null,
      FirstAirSeason: firstAirSeason,
      Studios: people('Studio', 'Company'),
      Producers: people('Producer', 'Person'),
    };
  }

  /**
   * AniDB relations of an anime in both directions, as stored (incoming ones from the other anime's side);
   * `forwardOnly` keeps the anime's own relations only.
   */
  async seriesRelations(animeId: number, onlyLocal: boolean, forwardOnly = false): Promise<SeriesRelation[]> {
    const rows = await this.db
      .selectFrom('anidb_relations')
      .selectAll()
      .where((eb) =>
        forwardOnly ? eb('anime_id', '=', animeId) : eb.or([eb('anime_id', '=', animeId), eb('related_anime_id', '=', animeId)]),
      )
      .execute();
    const ids = [...new Set(rows.flatMap((r) => [r.anime_id, r.related_anime_id]))];
    const series = new Map(
      ids.length
        ? (await this.db.selectFrom('series').select(['id', 'anime_id']).where('anime_id', 'in', ids).execute()).map((s) => [
            s.anime_id,
            s.id,
          ])
        : [],
    );
    return rows
      .filter((r) => !onlyLocal || series.has(r.anime_id === animeId ? r.related_anime_id : r.anime_id))
      .sort((a, b) => a.anime_id - b.anime_id || a.related_anime_id - b.related_anime_id || a.relation_type.localeCompare(b.relation_type))
      .map((r) => ({
        IDs: { Shoko: series.get(r.anime_id) ?? null, AniDB: r.anime_id },
        RelatedIDs: { Shoko: series.get(r.related_anime_id) ?? null, AniDB: r.related_anime_id },
        Type: relationType(r.relation_type),
        Source: 'AniDB' as const,
      }));
  }
}

const SEASONS = ['Winter', 'Spring', 'Summer', 'Fall'];

/** §1 SeriesRelation. */
export interface SeriesRelation {
  IDs: { Shoko: number | null; AniDB: number };
  RelatedIDs: { Shoko: number | null; AniDB: number };
  Type: string;
  Source: 'AniDB';
}
