// Writes a Shoko Server data folder and prints its row counts:
//   node --import tsx fakes/src/shoko-data/main.ts --out <dir> --media <dir> [--size small|large] [--series N] [--files N]
//     [--users N] [--schema-version N] [--shoko-media-root P] [--leave-wal]
import { parseArgs } from 'node:util';
import { writeShokoDataFolder } from './index.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    media: { type: 'string' },
    size: { type: 'string', default: 'small' },
    series: { type: 'string' },
    files: { type: 'string' },
    users: { type: 'string' },
    'schema-version': { type: 'string' },
    'shoko-media-root': { type: 'string' },
    'leave-wal': { type: 'boolean', default: false },
  },
});

const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
if (!values.out || !values.media || (values.size !== 'small' && values.size !== 'large')) {
  console.error('Usage: main.ts --out <dir> --media <dir> [--size small|large] [--series N] [--files N] [--users N]');
  console.error('       [--schema-version N] [--shoko-media-root P] [--leave-wal]');
  process.exit(2);
}

const started = performance.now();
const manifest = await writeShokoDataFolder(values.out, {
  size: values.size,
  mediaRoot: values.media,
  series: number(values.series),
  files: number(values.files),
  users: number(values.users),
  schemaVersion: number(values['schema-version']),
  shokoMediaRoot: values['shoko-media-root'],
  leaveWal: values['leave-wal'],
});
const seconds = (performance.now() - started) / 1000;

const width = Math.max(...Object.keys(manifest.rowCounts).map((table) => table.length));
for (const [table, count] of Object.entries(manifest.rowCounts)) {
  if (count > 0) console.log(`${table.padEnd(width)}  ${count.toLocaleString('en-US')}`);
}
const empty = Object.values(manifest.rowCounts).filter((count) => count === 0).length;
console.log(`(${empty} more tables empty) — schema version ${manifest.schemaVersion} (${manifest.schemaShape} tables)`);
console.log(`Wrote ${manifest.databasePath} in ${seconds.toFixed(1)} s; media root ${manifest.mediaRoot}`);
