import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

export interface FiltersTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  is_locked: Flag;
  is_directory: Flag;
  is_hidden: Flag;
  apply_at_series_level: Flag;
  /** JSON of the contract's FilterCondition, stripped ids. */
  expression: string | null;
  /** JSON of the contract's SortingCriteria. */
  sorting: string | null;
  /** 0055: a directory whose sub-filters are computed from the collection (`Years`, `Seasons`, `Tags`). */
  directory_of: string | null;
  created_at: string;
  updated_at: string;
}

/** 0055: rows a new collection was given, with their content as written (db/seeded-defaults.ts). */
export interface SeededDefaultsTable {
  table_name: string;
  row_id: number;
  content: string;
}

export interface FilterTables {
  filters: FiltersTable;
  seeded_defaults: SeededDefaultsTable;
}
