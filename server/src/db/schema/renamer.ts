import type { Generated } from 'kysely';

export interface RenamerConfigsTable {
  id: Generated<number>;
  name: string;
  renamer_id: string;
  /** JSON array of { Name, Value }. */
  settings: string;
}

export interface RelocationJournalTable {
  id: Generated<number>;
  batch_id: string;
  file_id: number;
  location_id: number;
  kind: 'file' | 'sidecar';
  from_folder_id: number;
  from_path: string;
  to_folder_id: number;
  to_path: string;
  state: 'planned' | 'moved' | 'committed' | 'rolled_back' | 'failed';
  error: string | null;
  undone_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface RenamerTables {
  renamer_configs: RenamerConfigsTable;
  relocation_journal: RelocationJournalTable;
}
