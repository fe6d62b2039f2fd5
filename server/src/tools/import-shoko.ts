/**
 * `npm run import-shoko -- --from <Shoko data folder> [--map-path FROM=TO]... [--dry-run] [--json]`: imports a Shoko
 * Server v5 data folder into the empty database SHOKO_HOME / SHOKO_DB name, exactly as the server would open it (stop
 * the server first). Prints the report (JSON with --json); exits 1 when nothing was imported or the import was refused.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { ShokoImportReport, ShokoPathMapping } from '@shoko-ts/contract';
import { readConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { EventBus } from '../events/bus.js';
import { SettingsService } from '../domains/settings/index.js';
import { ShokoImportService, ShokoImportStore } from '../domains/shoko-import/index.js';

const USAGE = 'Usage: npm run import-shoko -- --from <Shoko data folder> [--map-path FROM=TO]... [--dry-run] [--json]';

export function parsePathMaps(values: string[]): ShokoPathMapping[] {
  return values.map((value) => {
    const at = value.indexOf('=');
    if (at <= 0 || at === value.length - 1) throw new Error(`--map-path wants FROM=TO (e.g. 'D:\\Anime\\=/srv/anime/'), got "${value}"`);
    return { From: value.slice(0, at), To: value.slice(at + 1) };
  });
}

export function formatReport(report: ShokoImportReport): string {
  const lines = [`${report.DryRun ? 'Dry run of the import of' : 'Imported'} ${report.Folder} (Shoko schema ${report.SchemaVersion})`, ''];
  const width = Math.max(...report.Kinds.map((k) => k.Kind.length), 4);
  lines.push(`${'Kind'.padEnd(width)}  ${'Source'.padStart(8)}  ${'Imported'.padStart(8)}  ${'Skipped'.padStart(8)}`);
  for (const kind of report.Kinds) {
    const skipped = kind.Skipped.reduce((n, s) => n + s.Count, 0);
    lines.push(
      `${kind.Kind.padEnd(width)}  ${String(kind.Source).padStart(8)}  ${String(kind.Imported).padStart(8)}  ${String(skipped).padStart(8)}`,
    );
  }
  const skips = report.Kinds.flatMap((k) => k.Skipped.map((s) => `  ${k.Kind}: ${s.Count} — ${s.Reason} (e.g. ${s.Examples.join(', ')})`));
  if (skips.length) lines.push('', 'Skipped:', ...skips);
  if (report.Notes.length) lines.push('', 'Notes:', ...report.Notes.map((n) => `  - ${n}`));
  if (report.SavedAs) lines.push('', `This report is kept as ${report.SavedAs}`);
  return lines.join('\n');
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      from: { type: 'string' },
      'map-path': { type: 'string', multiple: true, default: [] },
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || !values.from) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = readConfig();
  // npm runs scripts in the repository; a relative folder means where the command was typed.
  const from = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.from);
  const logger = pino({ level: values.json ? 'silent' : 'warn', base: undefined });
  const db = openDatabase({ home: config.home, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    const settings = await SettingsService.open({ home: config.home, logger, bus: new EventBus() });
    const service = new ShokoImportService({
      store: new ShokoImportStore(db.kysely, db.dialect),
      home: config.home,
      settings,
      logger,
    });
    if (!values.json) console.log(`${values['dry-run'] ? 'Reading' : 'Importing'} ${from} into ${db.description}…`);
    const report = await service.run({ Folder: from, PathMap: parsePathMaps(values['map-path']) }, { dryRun: values['dry-run'] });
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
    const imported = report.Kinds.reduce((n, k) => n + k.Imported, 0);
    return imported > 0 ? 0 : 1;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json) console.log(JSON.stringify({ Error: message }));
    else console.error(message);
    return 1;
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then((code) => process.exit(code));
}
