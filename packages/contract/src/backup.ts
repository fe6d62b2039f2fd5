import { Type, type Static } from '@sinclair/typebox';

/**
 * Backups of the database and settings: our extension of the API (`/api/v3/Backup*`, Swagger tag "Backup"),
 * admin-only. Shoko has no such routes.
 */

/** Why a backup was made: by hand, by the schedule, before migrations ran, or of the database a restore replaced. */
export const BackupKind = Type.Union([
  Type.Literal('Manual'),
  Type.Literal('Scheduled'),
  Type.Literal('BeforeMigration'),
  Type.Literal('BeforeRestore'),
]);
export type BackupKind = Static<typeof BackupKind>;

export const BackupDatabaseKind = Type.Union([Type.Literal('SQLite'), Type.Literal('PostgreSQL')]);
export type BackupDatabaseKind = Static<typeof BackupDatabaseKind>;

/** One backup file in `<home>/backups/`. Fields read from its manifest are null when the file is not a backup. */
export const Backup = Type.Object({
  /** The file name, which is also its id in the routes. */
  Name: Type.String(),
  /** Size of the file in bytes. */
  Size: Type.Integer(),
  /** When the backup was made (ISO 8601, UTC). */
  CreatedAt: Type.String(),
  /** The newest migration the backed-up database had run; a backup from an older schema is migrated on restore. */
  SchemaVersion: Type.Union([Type.String(), Type.Null()]),
  Database: Type.Union([BackupDatabaseKind, Type.Null()]),
  Kind: Type.Union([BackupKind, Type.Null()]),
});
export type Backup = Static<typeof Backup>;

/** `GET Backup/Status`: what this server can do, the schedule, and a restore waiting for the next start. */
export const BackupStatus = Type.Object({
  Database: BackupDatabaseKind,
  /** False when backups cannot be made here (PostgreSQL without pg_dump); `Problem` says why. */
  Available: Type.Boolean(),
  Problem: Type.Union([Type.String(), Type.Null()]),
  /** Hours between scheduled backups; 0 when the schedule is off (env SHOKO_BACKUP_INTERVAL_HOURS). */
  IntervalHours: Type.Number(),
  /** How many automatic backups are kept (env SHOKO_BACKUP_KEEP); backups made by hand are never removed. */
  Keep: Type.Integer(),
  /** The backup that will be restored when the server next starts, or null. */
  PendingRestore: Type.Union([Type.String(), Type.Null()]),
  /** The newest migration the running database has run. */
  SchemaVersion: Type.Union([Type.String(), Type.Null()]),
});
export type BackupStatus = Static<typeof BackupStatus>;

/** `Backup/{name}` and `Backup/{name}/Restore`: a file name as listed; anything else is a 400 naming `name`. */
export const BackupNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export type BackupNameParams = Static<typeof BackupNameParams>;
