import { Type, type Static } from '@sinclair/typebox';

/**
 * Moving from Shoko Server: our extension of the API (`/api/v3/ShokoImport/*`, Swagger tag "ShokoImport"). It reads a
 * Shoko Server v5.x data folder (read-only) and writes its collection into this server's empty database. Open only while
 * the server is a fresh install (the first-run principal); the command `npm run import-shoko` does the same headless.
 */

/** A path prefix of the Shoko machine and where the same folder is here (`D:\Anime\` → `/srv/anime/`). */
export const ShokoPathMapping = Type.Object({
  From: Type.String({ minLength: 1, maxLength: 1000 }),
  To: Type.String({ minLength: 1, maxLength: 1000 }),
});
export type ShokoPathMapping = Static<typeof ShokoPathMapping>;

/** `POST ShokoImport/DryRun` and `POST ShokoImport/Start`. */
export const ShokoImportRequest = Type.Object({
  /** The Shoko Server data folder: the one holding `settings-server.json` and `SQLite/JMMServer.db3`. */
  Folder: Type.String({ minLength: 1, maxLength: 1000 }),
  PathMap: Type.Optional(Type.Array(ShokoPathMapping, { maxItems: 100 })),
});
export type ShokoImportRequest = Static<typeof ShokoImportRequest>;

/** Source rows of one kind that were not imported, grouped by the reason. */
export const ShokoImportSkip = Type.Object({
  Reason: Type.String(),
  Count: Type.Integer(),
  /** A few of the rows concerned (an id, a name or a path), to find them in Shoko. */
  Examples: Type.Array(Type.String()),
});
export type ShokoImportSkip = Static<typeof ShokoImportSkip>;

/** One kind of data (users, files, watch states, …): Source = Imported + the sum of the skips' counts. */
export const ShokoImportKind = Type.Object({
  Kind: Type.String(),
  Source: Type.Integer(),
  Imported: Type.Integer(),
  Skipped: Type.Array(ShokoImportSkip),
});
export type ShokoImportKind = Static<typeof ShokoImportKind>;

export const ShokoImportReport = Type.Object({
  Folder: Type.String(),
  /** Shoko's database schema version (its `Versions` table). */
  SchemaVersion: Type.Integer(),
  /** True for a dry run: nothing was written. */
  DryRun: Type.Boolean(),
  Kinds: Type.Array(ShokoImportKind),
  /** What must be fixed before the import can run (an import folder to map); empty when it can. */
  Blockers: Type.Array(Type.String()),
  /** Things the user should know that are not a skipped row (a setting not carried over, a folder not found here). */
  Notes: Type.Array(Type.String()),
  StartedAt: Type.String(),
  FinishedAt: Type.String(),
  /** Where the report is kept in the data folder (`shoko-import/report-<time>.json`); null for a dry run. */
  SavedAs: Type.Union([Type.String(), Type.Null()]),
});
export type ShokoImportReport = Static<typeof ShokoImportReport>;

export const ShokoImportState = Type.Union([
  Type.Literal('Idle'),
  Type.Literal('Running'),
  Type.Literal('Completed'),
  Type.Literal('Failed'),
]);
export type ShokoImportState = Static<typeof ShokoImportState>;

/**
 * `GET ShokoImport/Status`, also sent on the aggregate hub's `shoko` feed as `ShokoEvent:ShokoImportProgress`.
 * Dry runs do not show here: only an import that writes.
 */
export const ShokoImportStatus = Type.Object({
  State: ShokoImportState,
  /** What is being done now ("Reading files", "Writing watch states", …); null when idle. */
  Step: Type.Union([Type.String(), Type.Null()]),
  /** Steps done of all steps, for a progress bar. */
  Done: Type.Integer(),
  Total: Type.Integer(),
  /** The report of the finished import. */
  Report: Type.Union([ShokoImportReport, Type.Null()]),
  /** Why the import failed; the database was left as it was. */
  Error: Type.Union([Type.String(), Type.Null()]),
});
export type ShokoImportStatus = Static<typeof ShokoImportStatus>;

/** The event's name on the `shoko` feed (the hub sends it as `ShokoEvent:<name>`). */
export const SHOKO_IMPORT_PROGRESS_EVENT = 'ShokoImportProgress';
