import type { RawBuilder } from 'kysely';
import type { Group, Series } from '@shoko-ts/contract';
import type { DialectName } from '../../db/database.js';
import type { Viewer } from '../../http/viewer.js';

/**
 * What the filter engine reads of the collection: group trees, visibility conditions and the Group and Series models.
 * The groups domain's BrowseStore answers it, given at wiring: groups list themselves through the filter engine, so
 * filters do not import groups.
 */
export interface CollectionReads {
  readonly dialect: DialectName;
  viewer(userId: number | null): Promise<Viewer>;
  nested(): Promise<boolean>;
  treeCte(nested: boolean): RawBuilder<unknown>;
  seriesAllowed(viewer: Viewer, alias: string): RawBuilder<unknown>;
  groupAllowed(viewer: Viewer, alias: string, nested: boolean): RawBuilder<unknown>;
  descendants(roots: number[]): Promise<Map<number, number[]>>;
  groupsByIds(ids: number[]): Promise<Array<{ id: number; name: string; parent_id: number | null }>>;
  topGroups(groupIds: number[], nested?: boolean): Promise<Map<number, number>>;
  groupModels(ids: number[], viewer: Viewer): Promise<Group[]>;
  groupSeriesIds(groupId: number, recursive: boolean, viewer: Viewer): Promise<number[]>;
  seriesModels(ids: number[], viewer: Viewer, options?: { includeAniDB?: boolean; includeTMDB?: boolean }): Promise<Series[]>;
}
