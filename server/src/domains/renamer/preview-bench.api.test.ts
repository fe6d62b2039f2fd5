import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer } from '../../test/harness.js';
import { seedLibrary } from './renamer-fixtures.store.js';
import { DEFAULT_SCRIPT } from './script.js';

/**
 * Benchmark (run with RENAMER_BENCH=1; `npm run bench -- renamer` does): one preview request over 10,000 recognised
 * files with the default script, twice. RENAMER_BENCH_OUT names a JSON file for the timings.
 */
describe.skipIf(!process.env.RENAMER_BENCH)('renamer preview benchmark', () => {
  it('previews 10,000 files', async () => {
    const server = await createTestServer();
    try {
      const key = await completeFirstRun(server);
      const library = await seedLibrary(server.services.db.kysely, path.join(server.home, 'library'), { count: 10_000 });
      const body = {
        FileIDs: library.fileIds,
        Config: {
          RenamerID: 'WebAOM',
          Name: 'Preview',
          Settings: [
            { Name: 'Script', Value: DEFAULT_SCRIPT },
            { Name: 'Max Episode Length', Value: 33 },
            { Name: 'Group Aware Sorting', Value: false },
          ],
        },
      };
      const runs: number[] = [];
      for (const run of [1, 2]) {
        const started = performance.now();
        const res = await server.request({ method: 'POST', url: '/api/v3/Renamer/Preview?move=true&rename=true', key, body });
        const elapsed = performance.now() - started;
        expect(res.statusCode).toBe(200);
        const results = res.json() as { IsSuccess: boolean }[];
        expect(results.filter((r) => r.IsSuccess)).toHaveLength(10_000);
        console.log(`preview of 10,000 files, run ${run}: ${Math.round(elapsed)} ms`);
        runs.push(Math.round(elapsed));
      }
      if (process.env.RENAMER_BENCH_OUT) fs.writeFileSync(process.env.RENAMER_BENCH_OUT, JSON.stringify({ files: 10_000, runsMs: runs }));
    } finally {
      await server.close();
    }
  }, 300_000);
});
