import { sql, type Kysely } from 'kysely';
import { NAME_FOLDS, refreshNameFolds, unfolded } from '../name-folds.js';
import type { MigrationContext } from './helpers.js';

/**
 * Folded names beside the names the filters' Name and Names selectors read (issue 22; what they hold: db/name-folds.ts): a
 * fuzzy filter compares folds in the database instead of folding every name in code per request.
 *
 * A trigger per table clears the fold in the transaction of a change to its name; new rows start without one; a
 * partial index holds the rows without a fold, so finding them before a filter runs reads nothing when there are
 * none. This migration fills every fold once.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const kind of Object.values(NAME_FOLDS)) {
    const { table, name, fold } = kind;
    await run(`ALTER TABLE ${table} ADD COLUMN ${fold} text`);
    await run(`CREATE INDEX ${table}_${fold}_missing ON ${table} (id) WHERE ${unfolded(kind)}`);
    const trigger = `${table}_${fold}_clear`;
    const clear = `UPDATE ${table} SET ${fold} = NULL WHERE id = NEW.id`;
    if (ctx.dialect === 'sqlite') {
      await run(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${name} ON ${table} BEGIN ${clear}; END`);
      continue;
    }
    await run(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${clear};
  RETURN NULL;
END $$`);
    await run(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${name} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
  }
  await refreshNameFolds(db);
}
