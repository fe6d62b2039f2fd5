/** Booleans are stored as 0/1 integers so one set of queries serves SQLite and PostgreSQL alike. */
export type Flag = number;
