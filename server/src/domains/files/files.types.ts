// The files domain's shared shapes: what the service, its lookups and the metadata domain pass between them.
import type { File, FileExcludeType, FileIncludeOnlyType, FileIncludeType, ListResult } from '@shoko-ts/contract';
import type { UserFileStatesTable } from '../../db/schema.js';
import type { FileRow } from './files.store.js';

export interface FileListQuery {
  page: number;
  pageSize: number;
  include: FileIncludeType[];
  includeOnly: FileIncludeOnlyType[];
  includeDataFrom?: string[];
  /** Only these contents (`ed2k:size`): the files of a series or an episode. */
  contents?: Set<string>;
  exclude: FileExcludeType[];
  sortOrder: string[];
  search?: string;
  /** The user whose resume point and watched date fill ResumePosition / Viewed / Watched. */
  viewerId?: number;
  /** The contents' cross-references (`XRefs`), when the caller has read them already: not read again. */
  crossReferences?: Map<string, unknown[]>;
}

/** How File models are shaped: what they include, for whom, and cross-references a caller has read already. */
export interface FileModelShape {
  include: FileIncludeType[];
  includeDataFrom: string[];
  viewerId?: number;
  /** By content (`ed2k:size`), covering every content of the files (see FileListQuery). */
  crossReferences?: Map<string, unknown[]>;
}

/** The parts of one user's record of one file (scrobble store) that the File model shows. */
export type FileUserState = Pick<UserFileStatesTable, 'resume_position_ms' | 'watched_at' | 'updated_at'>;

type Content = { ed2k: string; size: number };

/** What the metadata domain adds to files. */
export interface FileDetailsSource {
  crossReferences(contents: Content[]): Promise<Map<string, unknown[]>>;
  anidbFiles(contents: Content[]): Promise<Map<string, Record<string, unknown>>>;
  manuallyLinked(contents: Content[]): Promise<Set<string>>;
  /** `ed2k:size` of the contents linked to a series / an episode; null when there is no such series / episode. */
  contentsOfSeries(seriesId: number): Promise<Set<string> | null>;
  contentsOfEpisode(episodeId: number): Promise<Set<string> | null>;
  /** `ed2k:size` of the contents linked to each of these episodes, in one query. */
  contentsOfEpisodes(episodeIds: number[]): Promise<Map<number, Set<string>>>;
}

/** What the file lookups ask of the files service (given to them at construction, so neither file imports the other). */
export interface FilesForLookups {
  readonly details: FileDetailsSource | undefined;
  modelsOf(rows: FileRow[], shape: FileModelShape): Promise<File[]>;
  content(id: number): Promise<Content>;
  contentsOf(kind: 'series' | 'episode', id: number): Promise<Set<string>>;
  list(query: FileListQuery): Promise<ListResult<File>>;
  rescan(id: number): Promise<void>;
}
