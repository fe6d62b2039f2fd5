/** The database's table types, one file per domain under db/schema/; `Database` is every domain's tables together. */
import type { AccountTables } from './schema/accounts.js';
import type { FileTables } from './schema/files.js';
import type { JobTables } from './schema/jobs.js';
import type { AniDBTables } from './schema/anidb.js';
import type { CollectionTables } from './schema/collection.js';
import type { FilterTables } from './schema/filters.js';
import type { UserStateTables } from './schema/user-state.js';
import type { FigureTables } from './schema/figures.js';
import type { CustomTagTables } from './schema/tags.js';
import type { TmdbTables } from './schema/tmdb.js';
import type { RenamerTables } from './schema/renamer.js';
import type { ImageTables } from './schema/images.js';
import type { TraktTables } from './schema/trakt.js';

export type { Flag } from './schema/flag.js';
export type * from './schema/accounts.js';
export type * from './schema/files.js';
export type * from './schema/jobs.js';
export type * from './schema/anidb.js';
export type * from './schema/collection.js';
export type * from './schema/filters.js';
export type * from './schema/user-state.js';
export type * from './schema/figures.js';
export type * from './schema/tags.js';
export type * from './schema/tmdb.js';
export type * from './schema/renamer.js';
export type * from './schema/images.js';
export type * from './schema/trakt.js';

export interface Database
  extends
    AccountTables,
    FileTables,
    JobTables,
    AniDBTables,
    CollectionTables,
    FilterTables,
    UserStateTables,
    FigureTables,
    CustomTagTables,
    TmdbTables,
    RenamerTables,
    ImageTables,
    TraktTables {}
