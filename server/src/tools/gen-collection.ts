// `npm run gen:collection -- --series 5000 --files 100000 [--seed 42] [--home DIR]`: fills the server's database
// (SHOKO_HOME / SHOKO_DB, like the server) with a synthetic collection for benchmarks and UI tests.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { readConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { refreshMaintainedFigures } from '../db/maintained-figures.js';
import { generateCollection } from '../domains/groups/index.js';

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      series: { type: 'string', default: '5000' },
      files: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '42' },
      home: { type: 'string' },
    },
  });
  const series = Number(values.series);
  const files = Number(values.files);
  if (!Number.isInteger(series) || series < 1 || !Number.isInteger(files) || files < 0)
    throw new Error('--series must be a positive integer and --files a non-negative integer');
  const config = readConfig(values.home ? { ...process.env, SHOKO_HOME: values.home } : process.env);
  const db = openDatabase({ home: config.home, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    const existing = await db.kysely.selectFrom('series').select('id').limit(1).executeTakeFirst();
    if (existing) throw new Error(`${db.description} already has series; generate into an empty collection`);
    const users = (await db.kysely.selectFrom('users').select('id').execute()).map((u) => u.id);
    const started = Date.now();
    await generateCollection(
      db.kysely,
      { series, files, seed: Number(values.seed), userIds: users, placeFiles: true, longRunning: true },
      (done) => process.stdout.write(`\r${done}/${series} series`),
    );
    // Every maintained figure brought up to date now, as after any bulk change, instead of by the server's first
    // readers; then fresh statistics so the query planner knows the tables' sizes and keys, as a long-running install
    // would.
    await sql`ANALYZE`.execute(db.kysely);
    const figuresStarted = Date.now();
    await refreshMaintainedFigures(db.kysely, db.dialect);
    const figuresMs = Date.now() - figuresStarted;
    await sql`ANALYZE`.execute(db.kysely);
    const count = async (table: 'series' | 'groups' | 'files' | 'episodes') =>
      Number(
        (
          await db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    process.stdout.write(
      `\nGenerated ${await count('series')} series in ${await count('groups')} groups, ${await count('episodes')} episodes, ${await count('files')} files into ${db.description} in ${((Date.now() - started) / 1000).toFixed(1)} s (maintained figures brought up to date in ${(figuresMs / 1000).toFixed(1)} s)\n`,
    );
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
