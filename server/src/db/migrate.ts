import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import type { MigrationContext } from './migrations/helpers.js';
import * as m0001 from './migrations/0001_accounts.js';
import * as m0002 from './migrations/0002_import.js';
import * as m0003 from './migrations/0003_metadata.js';
import * as m0004 from './migrations/0004_anidb_details.js';
import * as m0005 from './migrations/0005_collection.js';
import * as m0008 from './migrations/0008_images.js';
import * as m0009 from './migrations/0009_tmdb.js';
import * as m0010 from './migrations/0010_series_images.js';
import * as m0011 from './migrations/0011_release_groups.js';
import * as m0013 from './migrations/0013_user_file_states.js';
import * as m0014 from './migrations/0014_avdump.js';
import * as m0015EpisodeImages from './migrations/0015_episode_preferred_images.js';
import * as m0016 from './migrations/0016_series_auto_match.js';
import * as m0018AniDBChecks from './migrations/0018_anidb_checks.js';
import * as m0017AniDBState from './migrations/0017_anidb_state.js';
import * as m0006 from './migrations/0006_renamer.js';
import * as m0021GroupMainAnime from './migrations/0021_group_main_anime.js';

type MigrationModule = { up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> };

/** Every migration in order; names are the sort key Kysely records, so never rename one that has shipped. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_accounts': m0001,
  '0002_import': m0002,
  '0003_metadata': m0003,
  '0004_anidb_details': m0004,
  '0005_collection': m0005,
  '0008_images': m0008,
  '0009_tmdb': m0009,
  '0010_series_images': m0010,
  '0011_release_groups': m0011,
  '0013_user_file_states': m0013,
  '0014_avdump': m0014,
  '0015_episode_preferred_images': m0015EpisodeImages,
  '0016_series_auto_match': m0016,
  '0017_anidb_state': m0017AniDBState,
  '0018_anidb_checks': m0018AniDBChecks,
  '0006_renamer': m0006,
  '0021_group_main_anime': m0021GroupMainAnime,
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
    // Migrations written side by side land in any order on development databases; each stands alone.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
