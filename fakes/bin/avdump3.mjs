// A fake AVDump3CL: prints the tool's output formats without reaching AniDB.
// FAKE_AVDUMP_SCENARIO: ok (default) | bad-credentials | timeout | stderr | partial. FAKE_AVDUMP_LOG: file that gets one
// JSON line with the arguments of every run.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

const args = process.argv.slice(2);
if (process.env.FAKE_AVDUMP_LOG) fs.appendFileSync(process.env.FAKE_AVDUMP_LOG, `${JSON.stringify(args)}\n`);
if (args[0] === '--Version') {
  console.log('AVDump3CL 8300');
  process.exit(0);
}

const scenario = process.env.FAKE_AVDUMP_SCENARIO ?? 'ok';
const files = args.filter((arg) => !arg.startsWith('--'));
const sizes = files.map((file) => fs.statSync(file).size);
const total = sizes.reduce((a, b) => a + b, 0);
let done = 0;
files.forEach((file, index) => {
  console.log(`${index + 1}/${files.length} Files | ${Math.floor(done + sizes[index] / 2)}/${total} MB |`);
  done += sizes[index];
  console.log(`${index + 1}/${files.length} Files | ${done}/${total} MB |`);
});
console.log('--------------------------------------------------');
console.log('Total [####################] 100%');
if (scenario === 'bad-credentials') {
  console.log('ACreq(Done: 0 Failed: 0 Pending: 0)');
  console.log('Creq failed: (WrongUsernameOrApiKey)');
  process.exit(0);
}
if (scenario === 'timeout') {
  console.log(`ACreq(Done: 0 Failed: ${files.length} Pending: 0)`);
  console.log('Creq failed: (Timeout)');
  process.exit(0);
}
if (scenario === 'stderr') {
  console.error('Unhandled exception: the file could not be read');
  process.exit(1);
}
const accepted = scenario === 'partial' ? files.length - 1 : files.length;
console.log(`ACreq(Done: ${accepted} Failed: ${files.length - accepted} Pending: 0)`);
files.forEach((file, index) => {
  const hash = createHash('sha1').update(file).digest('hex').slice(0, 32).toUpperCase();
  console.log(`ed2k://|file|${path.basename(file)}|${sizes[index]}|${hash}|/`);
});
