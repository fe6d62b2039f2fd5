import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import type { MigrationContext } from './migrations/helpers.js';
import * as m0001 from './migrations/0001_accounts.js';
import * as m0002 from './migrations/0002_import.js';
import * as m0003 from './migrations/0003_metadata.js';
import * as m0004 from './migrations/0004_anidb_details.js';

type MigrationModule = { up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> };

/** Every migration in order; names are the sort key Kysely records, so never rename one that has shipped. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_accounts': m0001,
  '0002_import': m0002,
  '0003_metadata': m0003,
  '0004_anidb_details': m0004,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly ctx: MigrationContext) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, mod]) => [name, { up: (db: Kysely<unknown>) => mod.up(db, this.ctx) }]),
    );
  }
}

/** Brings the schema up to date; each migration runs in its own transaction on both dialects. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: new StaticMigrationProvider({ dialect: db.dialect }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
