import type { Kysely, Selectable } from 'kysely';
import type { MediaInfo, RenamerSetting } from '@shoko-ts/contract';
import type { Database, RelocationJournalTable } from '../../db/schema.js';
import { episodeTypeLetter, type RenameSubject } from './script.js';

export interface ConfigRow {
  id: number;
  name: string;
  renamerId: string;
  settings: RenamerSetting[];
}

export type JournalRow = Omit<RelocationJournalTable, 'id'> & { id: number };
export type JournalEntry = Omit<JournalRow, 'id' | 'batch_id' | 'state' | 'error' | 'undone_by' | 'created_at' | 'updated_at'>;

/** One on-disk location of a file, with what the renamer needs to know about the file. */
export interface RenameCandidate {
  fileId: number;
  locationId: number;
  folderId: number;
  relativePath: string;
  size: number;
  ed2k: string;
  subject: RenameSubject | null;
  /** Episodes linked without local metadata. */
  missingEpisodes: number;
  animeDirectories: { folderId: number; directory: string }[];
  series: { name: string; groupName: string; groupSize: number; restricted: boolean } | null;
}

type AnimeCache = Map<
  number,
  {
    row: Selectable<Database['anidb_anime']>;
    titles: { type: string; language: string; value: string }[];
    directories: { folderId: number; directory: string; ed2ks: Set<string> }[];
    series: RenameCandidate['series'];
  }
>;

const CHUNK = 500;
const now = () => new Date().toISOString();
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));
const parseJson = <T>(text: string | null, fallback: T): T => {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
};
/** Language lists are stored as JSON arrays. */
const languageList = (text: string): string[] => {
  const list = parseJson<unknown>(text, []);
  return Array.isArray(list) ? list.filter((l): l is string => typeof l === 'string') : [];
};

/** SQL of renamer configs, the relocation journal and the metadata a rename reads. */
export class RenamerStore {
  constructor(private readonly db: Kysely<Database>) {}

  async configs(): Promise<ConfigRow[]> {
    const rows = await this.db.selectFrom('renamer_configs').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ id: row.id, name: row.name, renamerId: row.renamer_id, settings: parseJson(row.settings, []) }));
  }

  async config(name: string): Promise<ConfigRow | null> {
    return (await this.configs()).find((c) => c.name === name) ?? null;
  }

  async insertConfig(config: Omit<ConfigRow, 'id'>): Promise<void> {
    await this.db
      .insertInto('renamer_configs')
      .values({ name: config.name, renamer_id: config.renamerId, settings: JSON.stringify(config.settings) })
      .execute();
  }

  async updateConfig(id: number, config: Omit<ConfigRow, 'id'>): Promise<void> {
    await this.db
      .updateTable('renamer_configs')
      .set({ name: config.name, renamer_id: config.renamerId, settings: JSON.stringify(config.settings) })
      .where('id', '=', id)
      .execute();
  }

  async deleteConfig(id: number): Promise<void> {
    await this.db.deleteFrom('renamer_configs').where('id', '=', id).execute();
  }

  /** Every on-disk location of the given files with its rename data, loaded in a few queries per 500 files. */
  async candidates(fileIds: number[]): Promise<RenameCandidate[]> {
    const result: RenameCandidate[] = [];
    const animeCache: AnimeCache = new Map();
    for (const ids of chunks([...new Set(fileIds)])) result.push(...(await this.candidateChunk(ids, animeCache)));
    return result;
  }

  /** Anime-level data (titles, where its files live, its series) loaded once per anime for a whole request. */
  private async loadAnime(animeIds: number[], cache: AnimeCache): Promise<void> {
    const db = this.db;
    for (const ids of chunks(animeIds.filter((id) => !cache.has(id)))) {
      for (const a of await db.selectFrom('anidb_anime').selectAll().where('id', 'in', ids).execute())
        cache.set(a.id, { row: a, titles: [], directories: [], series: null });
      for (const t of await db
        .selectFrom('anidb_anime_titles')
        .select(['anime_id', 'type', 'language', 'value'])
        .where('anime_id', 'in', ids)
        .execute())
        cache.get(t.anime_id)?.titles.push(t);
      const placed = await db
        .selectFrom('file_episode_links as l')
        .innerJoin('files as f', (join) => join.onRef('f.ed2k', '=', 'l.ed2k').onRef('f.size', '=', 'l.size'))
        .innerJoin('file_locations as fl', 'fl.file_id', 'f.id')
        .leftJoin('anidb_episodes as e', 'e.id', 'l.episode_id')
        .select([
          'l.anime_id as animeId',
          'fl.import_folder_id as folderId',
          'fl.relative_path as path',
          'e.air_date as airDate',
          'f.ed2k as ed2k',
        ])
        .where('l.anime_id', 'in', ids)
        .execute();
      // One entry per directory: its latest aired episode and the contents (ED2K) found there.
      const byDirectory = new Map<string, { animeId: number; folderId: number; directory: string; airDate: string; ed2ks: Set<string> }>();
      for (const p of placed) {
        const at = p.path.lastIndexOf('/');
        const directory = at < 0 ? '' : p.path.slice(0, at);
        const key = `${p.animeId}:${p.folderId}:${directory}`;
        const entry = byDirectory.get(key) ?? {
          animeId: p.animeId,
          folderId: p.folderId,
          directory,
          airDate: '',
          ed2ks: new Set<string>(),
        };
        if ((p.airDate ?? '') > entry.airDate) entry.airDate = p.airDate ?? '';
        entry.ed2ks.add(p.ed2k);
        byDirectory.set(key, entry);
      }
      for (const entry of [...byDirectory.values()].sort((a, b) => b.airDate.localeCompare(a.airDate)))
        cache.get(entry.animeId)?.directories.push(entry);
      const seriesRows = await db
        .selectFrom('series as s')
        .innerJoin('groups as g', 'g.id', 's.group_id')
        .innerJoin('anidb_anime as a', 'a.id', 's.anime_id')
        .select([
          's.anime_id as animeId',
          's.group_id as groupId',
          's.title_override as titleOverride',
          'a.main_title as mainTitle',
          'a.restricted as restricted',
          'g.name as groupName',
        ])
        .where('s.anime_id', 'in', ids)
        .execute();
      const groupIds = [...new Set(seriesRows.map((s) => s.groupId))];
      const groupSizes = new Map<number, number>();
      if (groupIds.length) {
        const counts = await db
          .selectFrom('series')
          .select(['group_id', (eb) => eb.fn.countAll<number>().as('count')])
          .where('group_id', 'in', groupIds)
          .groupBy('group_id')
          .execute();
        for (const c of counts) groupSizes.set(c.group_id, Number(c.count));
      }
      for (const s of seriesRows) {
        const entry = cache.get(s.animeId);
        if (entry)
          entry.series = {
            name: s.titleOverride ?? s.mainTitle,
            groupName: s.groupName,
            groupSize: groupSizes.get(s.groupId) ?? 1,
            restricted: !!s.restricted,
          };
      }
    }
  }

  private async candidateChunk(fileIds: number[], animeCache: AnimeCache): Promise<RenameCandidate[]> {
    const db = this.db;
    const files = await db.selectFrom('files').selectAll().where('id', 'in', fileIds).execute();
    const locations = await db.selectFrom('file_locations').selectAll().where('file_id', 'in', fileIds).orderBy('id').execute();
    const hashes = [...new Set(files.map((f) => f.ed2k).filter(Boolean))];
    const contentKey = (row: { ed2k: string; size: number }) => `${row.ed2k}:${row.size}`;
    const anidbFiles = new Map<string, Database['anidb_files']>();
    const links = new Map<string, { episode_id: number }[]>();
    const releaseGroups = new Map<number, { name: string; short_name: string }>();
    if (hashes.length) {
      for (const a of await db.selectFrom('anidb_files').selectAll().where('ed2k', 'in', hashes).where('file_id', 'is not', null).execute())
        anidbFiles.set(contentKey(a), a);
      const groupIds = [...new Set([...anidbFiles.values()].map((a) => a.group_id).filter((id) => id > 0))];
      if (groupIds.length)
        for (const g of await db.selectFrom('anidb_release_groups').selectAll().where('id', 'in', groupIds).execute())
          releaseGroups.set(g.id, g);
      const linkRows = await db
        .selectFrom('file_episode_links')
        .selectAll()
        .where('ed2k', 'in', hashes)
        .orderBy('ordering')
        .orderBy('id')
        .execute();
      for (const l of linkRows) links.set(contentKey(l), [...(links.get(contentKey(l)) ?? []), l]);
    }
    const episodeIds = [...new Set([...links.values()].flat().map((l) => l.episode_id))];
    const episodes = new Map<number, Database['anidb_episodes']>();
    for (const ids of chunks(episodeIds))
      for (const e of await db.selectFrom('anidb_episodes').selectAll().where('id', 'in', ids).execute()) episodes.set(e.id, e);
    await this.loadAnime([...new Set([...episodes.values()].map((e) => e.anime_id))], animeCache);

    const byFile = new Map(files.map((f) => [f.id, f]));
    const result: RenameCandidate[] = [];
    for (const location of locations) {
      const file = byFile.get(location.file_id);
      if (!file) continue;
      const anidbFile = anidbFiles.get(contentKey(file)) ?? null;
      const fileLinks = links.get(contentKey(file)) ?? [];
      const linked = fileLinks.map((l) => episodes.get(l.episode_id)).filter((e): e is Database['anidb_episodes'] => !!e);
      const missingEpisodes = fileLinks.length - linked.length;
      const extensionAt = location.relative_path.lastIndexOf('.');
      const extension = extensionAt > location.relative_path.lastIndexOf('/') ? location.relative_path.slice(extensionAt) : '';
      let subject: RenameSubject | null = null;
      const first = linked[0];
      const animeData = first ? animeCache.get(first.anime_id) : undefined;
      const animeRow = animeData?.row;
      if (first && animeData && animeRow) {
        // Manual links list their episodes by type, then number; AniDB's own order stays as AniDB gave it.
        const ordered = anidbFile
          ? linked
          : [...linked].sort((a, b) => episodeTypeLetter(a.type).localeCompare(episodeTypeLetter(b.type)) || a.number - b.number);
        const animeTitles = animeData.titles;
        const title = (types: string[], language: string) =>
          animeTitles.find((t) => types.includes(t.type) && t.language === language)?.value ?? null;
        const media = parseJson<MediaInfo | null>(file.media_info, null);
        const video = media?.Video?.[0];
        subject = {
          animeId: animeRow.id,
          animeType: animeRow.type,
          year: animeRow.air_date ? Number(animeRow.air_date.slice(0, 4)) : null,
          mainTitle: animeTitles.find((t) => t.type === 'main')?.value ?? title(['official'], 'x-jat') ?? animeRow.main_title ?? null,
          englishTitle: title(['official', 'main'], 'en'),
          kanjiTitle: title(['official', 'main'], 'ja'),
          normalEpisodeCount: animeRow.episode_count,
          specialEpisodeCount: animeRow.special_count,
          episodes: ordered.map((e) => {
            const episodeTitles = parseJson<{ language: string; value: string }[]>(e.titles, []);
            return {
              id: e.id,
              type: episodeTypeLetter(e.type),
              number: e.number,
              englishTitle: episodeTitles.find((t) => t.language === 'en')?.value ?? null,
              romajiTitle: episodeTitles.find((t) => t.language === 'x-jat')?.value ?? null,
            };
          }),
          anidbFile: anidbFile
            ? {
                fileId: anidbFile.file_id ?? 0,
                groupId: anidbFile.group_id,
                groupShortName: releaseGroups.get(anidbFile.group_id)?.short_name ?? null,
                groupLongName: releaseGroups.get(anidbFile.group_id)?.name ?? null,
                version: anidbFile.version,
                source: anidbFile.source || null,
                audioLanguages: languageList(anidbFile.audio_languages),
                subtitleLanguages: languageList(anidbFile.subtitle_languages),
                censored: !!anidbFile.is_censored,
                deprecated: !!anidbFile.is_deprecated,
                originalName: anidbFile.file_name || null,
              }
            : null,
          ed2k: file.ed2k,
          crc32: file.crc32 || null,
          video: video
            ? { width: video.Width, height: video.Height, codec: video.Codec?.Simplified ?? null, bitDepth: video.BitDepth || null }
            : null,
          audioCodec: media?.Audio?.[0]?.Codec?.Simplified ?? null,
          extension,
          manuallyLinked: !anidbFile && linked.length > 0,
        };
      }
      const animeId = subject?.animeId;
      // Directories holding other files of the anime; a file does not count as its own neighbour. The list is capped:
      // a renamer takes the first usable one.
      const directories = (animeId ? (animeCache.get(animeId)?.directories ?? []) : [])
        .filter((d) => d.ed2ks.size > 1 || !d.ed2ks.has(file.ed2k))
        .slice(0, 20)
        .map(({ folderId, directory }) => ({ folderId, directory }));
      result.push({
        fileId: file.id,
        locationId: location.id,
        folderId: location.import_folder_id,
        relativePath: location.relative_path,
        size: file.size,
        ed2k: file.ed2k,
        subject,
        missingEpisodes,
        animeDirectories: directories,
        series: animeId ? (animeCache.get(animeId)?.series ?? null) : null,
      });
    }
    return result;
  }

  async existingFiles(fileIds: number[]): Promise<number[]> {
    const found: number[] = [];
    for (const ids of chunks([...new Set(fileIds)]))
      found.push(...(await this.db.selectFrom('files').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
    return found;
  }

  async fileSize(fileId: number): Promise<number | null> {
    return (await this.db.selectFrom('files').select('size').where('id', '=', fileId).executeTakeFirst())?.size ?? null;
  }

  /** The location currently recorded at a path, if any (collision check). */
  async locationAt(folderId: number, relativePath: string): Promise<{ id: number; file_id: number } | null> {
    return (
      (await this.db
        .selectFrom('file_locations')
        .select(['id', 'file_id'])
        .where('import_folder_id', '=', folderId)
        .where('relative_path', '=', relativePath)
        .executeTakeFirst()) ?? null
    );
  }

  async location(id: number) {
    return (await this.db.selectFrom('file_locations').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  // Journal

  async plan(entries: JournalEntry[], batchId: string): Promise<JournalRow[]> {
    const at = now();
    return this.db
      .insertInto('relocation_journal')
      .values(
        entries.map((e) => ({
          ...e,
          batch_id: batchId,
          state: 'planned' as const,
          error: null,
          undone_by: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .returningAll()
      .execute();
  }

  async setState(ids: number[], state: JournalRow['state'], error: string | null = null): Promise<void> {
    if (!ids.length) return;
    await this.db.updateTable('relocation_journal').set({ state, error, updated_at: now() }).where('id', 'in', ids).execute();
  }

  /** Points the location at its new path and marks its entries committed, atomically. */
  async commit(entries: JournalRow[], locationId: number, folderId: number, relativePath: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('file_locations')
        .set({ import_folder_id: folderId, relative_path: relativePath, is_accessible: 1 })
        .where('id', '=', locationId)
        .execute();
      await trx
        .updateTable('relocation_journal')
        .set({ state: 'committed', updated_at: now() })
        .where(
          'id',
          'in',
          entries.map((e) => e.id),
        )
        .execute();
    });
  }

  unfinished(): Promise<JournalRow[]> {
    return this.db
      .selectFrom('relocation_journal')
      .selectAll()
      .where('state', 'in', ['planned', 'moved'])
      .orderBy('id')
      .execute() as Promise<JournalRow[]>;
  }

  batch(batchId: string): Promise<JournalRow[]> {
    return this.db.selectFrom('relocation_journal').selectAll().where('batch_id', '=', batchId).orderBy('id').execute() as Promise<
      JournalRow[]
    >;
  }

  async markUndone(batchId: string, undoBatchId: string): Promise<void> {
    await this.db.updateTable('relocation_journal').set({ undone_by: undoBatchId }).where('batch_id', '=', batchId).execute();
  }

  async batches(limit: number) {
    const rows = await this.db
      .selectFrom('relocation_journal')
      .select([
        'batch_id',
        (eb) => eb.fn.min('created_at').as('created'),
        (eb) => eb.fn.count<number>('id').as('files'),
        (eb) => eb.fn.max('undone_by').as('undone'),
      ])
      .where('kind', '=', 'file')
      .groupBy('batch_id')
      .orderBy('created', 'desc')
      .limit(limit)
      .execute();
    const states = await this.db
      .selectFrom('relocation_journal')
      .select(['batch_id', 'state', (eb) => eb.fn.count<number>('id').as('count')])
      .where('kind', '=', 'file')
      .where('batch_id', 'in', rows.length ? rows.map((r) => r.batch_id) : [''])
      .groupBy(['batch_id', 'state'])
      .execute();
    return rows.map((r) => {
      const count = (state: string) => Number(states.find((s) => s.batch_id === r.batch_id && s.state === state)?.count ?? 0);
      return {
        BatchID: r.batch_id,
        CreatedAt: String(r.created),
        Files: Number(r.files),
        Committed: count('committed'),
        RolledBack: count('rolled_back'),
        Undone: !!r.undone,
      };
    });
  }
}
