/**
 * `npm run restore -- <backup>`: restores a backup (a path, or a file name in <home>/backups) into the data directory
 * named by SHOKO_HOME / SHOKO_DB, as the server would read them. Stop the server first. The current database is kept
 * aside (see domains/backup/restore.ts); the next start migrates a backup from an older schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { readConfig } from '../config.js';
import { restoreBackup } from '../domains/backup/index.js';

async function main() {
  const argument = process.argv[2];
  if (!argument || argument === '--help' || argument === '-h') {
    console.error('Usage: npm run restore -- <backup file or name in <home>/backups>   (stop the server first)');
    process.exit(argument ? 0 : 2);
  }
  const config = readConfig();
  const inBackups = path.join(config.home, 'backups', argument);
  // npm runs scripts in the repository; a relative path means where the command was typed.
  const typed = path.resolve(process.env.INIT_CWD ?? process.cwd(), argument);
  const archive = fs.existsSync(typed) ? typed : inBackups;
  if (!fs.existsSync(archive)) {
    console.error(`No backup at ${argument} (nor ${inBackups})`);
    process.exit(2);
  }
  const logger = pino({ base: undefined, timestamp: false, formatters: { level: (label) => ({ level: label }) } });
  console.log(`Restoring ${archive} into ${config.home} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
  const result = await restoreBackup({ home: config.home, databaseUrl: config.databaseUrl }, archive, logger);
  console.log(
    `Done. Schema of the backup: ${result.schemaVersion ?? 'empty'}; the next start applies newer migrations.` +
      (result.keptAside ? `\nThe previous database was kept as ${result.keptAside}` : ''),
  );
}

main().catch((error) => {
  console.error('Restore failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
