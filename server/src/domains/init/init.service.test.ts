import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InitService } from './init.service.js';
import { ServerStateService } from './server-state.js';

describe('InitService', () => {
  it('runs the work for after the start once the server reports Started, and not when the start fails', async () => {
    const users = { hasAccounts: async () => true, createFirstAdmin: async () => undefined };
    const settings = { current: { FirstRun: false }, update: async () => undefined };
    const seen: string[] = [];
    const start = async (steps: Array<() => Promise<void>>) => {
      const state = new ServerStateService();
      const init = new InitService(
        state,
        users,
        settings,
        steps.map((run) => ({ message: 'step', run })),
        pino({ level: 'silent' }),
        () => seen.push(state.current),
      );
      init.startServer();
      await init.waitForStartup();
      return state.current;
    };
    expect(await start([async () => undefined])).toBe('Started');
    expect(seen).toEqual(['Started']);
    expect(
      await start([
        async () => {
          throw new Error('no database');
        },
      ]),
    ).toBe('Failed');
    expect(seen).toEqual(['Started']);
  });
});
