import { afterAll, vi } from 'vitest';

/**
 * The test files share one process and its modules (`isolate: false`: importing the server once instead of once per
 * file saved about three minutes a run). What a file changes in the process itself is put back when it ends, so no
 * file depends on the ones before it: environment variables, the working directory, fake timers and spies.
 */
const environment = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  if (process.cwd() !== cwd) process.chdir(cwd);
  vi.useRealTimers();
  vi.restoreAllMocks();
});
