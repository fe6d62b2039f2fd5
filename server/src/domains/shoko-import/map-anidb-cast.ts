import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import { animeMissing, type MapContext } from './map-context.js';
import { nullableProse, nullableText, text } from './shoko-values.js';

const CHARACTER_TYPES: Record<number, string> = { 1: 'Character', 2: 'Mecha', 3: 'Organization', 4: 'Vessel' };
const GENDERS: Record<number, string> = { 1: 'female', 2: 'male' };

/** Characters (with their voice actors) and credited staff; v5.0's older tables (schema < 131) are read too. */
export function mapCast(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const modern = shoko.columns('AniDB_Character').has('CharacterID');
  const characterRows = modern
    ? shoko.all('AniDB_Character', ['CharacterID', 'Name', 'Description', 'ImagePath', 'Gender', 'Type'])
    : shoko.all('AniDB_Character', ['CharID', 'CharName', 'CharDescription', 'PicName']).map((r) => ({
        CharacterID: r.CharID,
        Name: r.CharName,
        Description: r.CharDescription,
        ImagePath: r.PicName,
        Gender: 0,
        Type: 0,
      }));
  const characters = report.kind('AniDB characters', characterRows.length);
  const characterIds = new Set<number>();
  plan.add(
    'anidb_characters',
    keepRows(characters, characterRows, {
      key: (row) => Number(row.CharacterID),
      duplicate: 'duplicate character row',
      kept: characterIds,
      map: (row, id) => ({
        id,
        name: text(row.Name),
        gender: GENDERS[Number(row.Gender)] ?? null,
        character_type: CHARACTER_TYPES[Number(row.Type)] ?? null,
        description: nullableProse(row.Description),
        picture: nullableText(row.ImagePath),
      }),
    }),
  );
  const creatorRows = shoko.all('AniDB_Creator', ['CreatorID', 'Name', 'ImagePath']);
  const creators = report.kind('AniDB creators', creatorRows.length);
  const creatorIds = new Set<number>();
  plan.add(
    'anidb_creators',
    keepRows(creators, creatorRows, {
      key: (row) => Number(row.CreatorID),
      duplicate: 'duplicate creator row',
      kept: creatorIds,
      map: (row, id) => ({ id, name: text(row.Name), picture: nullableText(row.ImagePath) }),
    }),
  );

  const appearanceRows = modern
    ? shoko.all('AniDB_Anime_Character', ['AnimeID', 'CharacterID', 'Appearance', 'Ordering'])
    : shoko
        .all('AniDB_Anime_Character', ['AnimeID', 'CharID', 'CharType'])
        .map((r, i) => ({ AnimeID: r.AnimeID, CharacterID: r.CharID, Appearance: r.CharType, Ordering: i }));
  const appearances = report.kind('AniDB anime characters', appearanceRows.length);
  plan.add(
    'anidb_anime_characters',
    keepRows(appearances, appearanceRows, {
      key: (row) => `${Number(row.AnimeID)}/${Number(row.CharacterID)}`,
      refuse: (row) =>
        animeMissing(ids, row) ?? (characterIds.has(Number(row.CharacterID)) ? undefined : 'its character is not in the database'),
      duplicate: 'duplicate character of the anime',
      map: (row) => ({
        anime_id: Number(row.AnimeID),
        character_id: Number(row.CharacterID),
        appearance: text(row.Appearance),
        ordering: Number(row.Ordering ?? 0),
      }),
    }),
  );

  // Voice actors are staff rows naming the character (role 'Seiyuu'), as an AniDB download stores them.
  const voiceRows = shoko.all('AniDB_Anime_Character_Creator', ['AnimeID', 'CharacterID', 'CreatorID', 'Ordering']);
  const staffRows = shoko.columns('AniDB_Anime_Staff').has('Role')
    ? shoko.all('AniDB_Anime_Staff', ['AnimeID', 'CreatorID', 'Role', 'Ordering'])
    : shoko.all('AniDB_Anime_Staff', ['AnimeID', 'CreatorID', 'CreatorType']).map((r, i) => ({ ...r, Role: r.CreatorType, Ordering: i }));
  const staff = report.kind('AniDB staff credits', voiceRows.length + staffRows.length);
  const credit = (row: Record<string, unknown>, role: string, characterId: number | null): Array<RowOf<'anidb_anime_staff'>> => {
    const key = `${Number(row.AnimeID)}/${Number(row.CreatorID)}`;
    const refusal = animeMissing(ids, row);
    if (refusal) return (staff.skipped(refusal, key), []);
    if (!creatorIds.has(Number(row.CreatorID))) return (staff.skipped('its creator is not in the database', key), []);
    if (characterId !== null && !characterIds.has(characterId)) return (staff.skipped('its character is not in the database', key), []);
    staff.took();
    return [
      {
        anime_id: Number(row.AnimeID),
        creator_id: Number(row.CreatorID),
        role,
        character_id: characterId,
        ordering: Number(row.Ordering ?? 0),
      },
    ];
  };
  plan.add('anidb_anime_staff', [
    ...voiceRows.flatMap((row) => credit(row, 'Seiyuu', Number(row.CharacterID))),
    ...staffRows.flatMap((row) => credit(row, text(row.Role), null)),
  ]);
}
