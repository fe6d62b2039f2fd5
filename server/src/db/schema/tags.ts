import type { Generated } from 'kysely';

export interface CustomTagsTable {
  id: Generated<number>;
  name: string;
  description: string;
}

export interface SeriesCustomTagsTable {
  series_id: number;
  tag_id: number;
}

export interface CustomTagTables {
  custom_tags: CustomTagsTable;
  series_custom_tags: SeriesCustomTagsTable;
}
