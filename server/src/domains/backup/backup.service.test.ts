import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { BackupService } from './backup.service.js';
import { BackupStore } from './backup.store.js';

describe('BackupService.list', () => {
  let directory = '';
  afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

  /** A store whose folder listing still names `vanishing` after the file has been removed (a prune in between). */
  function racingStore(vanishing: string) {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-list-'));
    for (const name of ['kept.tar.gz', vanishing]) fs.writeFileSync(path.join(directory, name), 'not an archive');
    const store = new BackupStore(null as unknown as Db, directory);
    const list = store.list.bind(store);
    store.list = async () => {
      const files = await list();
      fs.rmSync(path.join(directory, vanishing));
      return files;
    };
    return store;
  }

  it('leaves out a backup removed while the folder was read, instead of failing the whole list', async () => {
    const service = new BackupService({
      store: racingStore('pruned.tar.gz'),
      dialect: 'sqlite',
      settings: { redacted: () => ({}) as never },
      schedule: { intervalHours: 0, keep: 1 } as never,
      logger: pino({ enabled: false }),
    });
    expect((await service.list()).map((b) => b.Name)).toEqual(['kept.tar.gz']);
  });
});
