import { HashPool } from '../server/dist/media/hashing/index.js';
const pool = new HashPool();
const several = Array.from({length:8},(_, i)=>`/tmp/hb/p${i+1}.bin`);
await pool.hash(several[0]);
const t = async (f) => { const s = performance.now(); await f(); return (performance.now()-s)/1000; };
for (let r=0;r<5;r++) {
  const a = await t(() => pool.hash('/tmp/hb/big.bin'));
  const b = await t(() => Promise.all(several.map(f => pool.hash(f))));
  console.log(`single ${(1073.741824/a).toFixed(0)} MB/s   eight ${(1073.741824/b).toFixed(0)} MB/s`);
}
await pool.close();
