import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The one query of the health check: does the database answer. */
export class HealthStore {
  constructor(private readonly db: Kysely<Database>) {}

  async ping(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }
}
