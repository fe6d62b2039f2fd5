import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer } from '../../test/harness.js';
import { seedLibrary } from './renamer.fixtures.js';
import { DEFAULT_SCRIPT } from './script.js';

/** Benchmark (run with RENAMER_BENCH=1): one preview request over 10,000 recognised files with the default script. */
describe.skipIf(!process.env.RENAMER_BENCH)('renamer preview benchmark', () => {
  it('previews 10,000 files', async () => {
    const server = await createTestServer();
    try {
      const key = await completeFirstRun(server);
      const library = await seedLibrary(server.services.db.kysely, path.join(server.home, 'library'), { count: 10_000 });
      const body = { FileIDs: library.fileIds, Config: { RenamerID: 'WebAOM', Name: 'Preview', Settings: [{ Name: 'Script', Value: DEFAULT_SCRIPT }, { Name: 'Max Episode Length', Value: 33 }, { Name: 'Group Aware Sorting', Value: false }] } };
      for (const run of [1, 2]) {
        const started = performance.now();
        const res = await server.request({ method: 'POST', url: '/api/v3/Renamer/Preview?move=true&rename=true', key, body });
        const elapsed = performance.now() - started;
        expect(res.statusCode).toBe(200);
        const results = res.json() as { IsSuccess: boolean }[];
        expect(results.filter((r) => r.IsSuccess)).toHaveLength(10_000);
        console.log(`preview of 10,000 files, run ${run}: ${Math.round(elapsed)} ms`);
      }
    } finally {
      await server.close();
    }
  }, 300_000);
});
