import { AniDBFileDeleteType } from '@shoko-ts/contract';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { addFileToMyList, removeFileFromMyList } from '../../providers/anidb/udp/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AniDBConnection } from './anidb-connection.js';

interface MyListPayload {
  ed2k: string;
  size: number;
  action: 'add' | 'remove';
}

/** The MyList storage state sent when the last copy of a file is deleted, by `MyList_DeleteType`; null = MYLISTDEL. */
const STATE_ON_DELETE: Record<number, number | 'delete' | 'nothing'> = {
  [AniDBFileDeleteType.Delete]: 'delete',
  [AniDBFileDeleteType.DeleteLocalOnly]: 'nothing',
  [AniDBFileDeleteType.MarkDeleted]: 3,
  [AniDBFileDeleteType.MarkExternalStorage]: 4,
  [AniDBFileDeleteType.MarkUnknown]: 0,
  [AniDBFileDeleteType.MarkDisk]: 2,
};

/** Keeps the user's AniDB MyList in step with the collection, as the MyList settings ask. */
export class MyList {
  readonly job: JobDefinition<MyListPayload>;

  constructor(private readonly deps: { anidb: AniDBConnection; settings: SettingsService; queue: QueueService }) {
    this.job = {
      kind: 'UpdateMyListFileStatusJob',
      type: 'Update AniDB MyList',
      title: 'Updating AniDB MyList',
      group: 'AniDB',
      priority: JobPriority.Lookup,
      key: (p) => `${p.action}:${p.ed2k}:${p.size}`,
      details: (p) => ({ Hash: p.ed2k, Action: p.action === 'add' ? 'Add' : 'Remove' }),
      run: (p, ctx) => this.run(p, ctx),
    };
    deps.queue.register(this.job);
  }

  /** After AniDB identified a file (only when `MyList_AddFiles`), or on request (`force`). */
  async queueAdd(content: { ed2k: string; size: number }, options: { force?: boolean } = {}): Promise<void> {
    if (!options.force && !this.deps.settings.current.AniDb.MyList_AddFiles) return;
    await this.deps.queue.enqueue(this.job, { ...content, action: 'add' });
  }

  /** After the last copy of a file was deleted from disk. */
  async queueRemove(content: { ed2k: string; size: number }): Promise<void> {
    if (STATE_ON_DELETE[this.deps.settings.current.AniDb.MyList_DeleteType] === 'nothing') return;
    await this.deps.queue.enqueue(this.job, { ...content, action: 'remove' });
  }

  private async run({ ed2k, size, action }: MyListPayload, ctx: JobContext): Promise<void> {
    // The queue holds this job while UDP cannot be used; one that started just before waits too.
    const hold = this.deps.anidb.udpHold();
    if (hold) throw new Error(`${hold}; the MyList update waits until that is over`);
    const udp = this.deps.anidb.udp();
    const settings = this.deps.settings.current.AniDb;
    if (action === 'add') {
      const result = await addFileToMyList(udp, { ed2k, size }, { state: settings.MyList_StorageState });
      ctx.logger.info(
        result.added ? `Added ${ed2k} to MyList` : result.alreadyThere ? `${ed2k} was already in MyList` : `AniDB does not know ${ed2k}`,
      );
      return;
    }
    const onDelete = STATE_ON_DELETE[settings.MyList_DeleteType] ?? 0;
    if (onDelete === 'nothing') return;
    if (onDelete === 'delete') {
      await removeFileFromMyList(udp, { ed2k, size });
      ctx.logger.info(`Removed ${ed2k} from MyList`);
      return;
    }
    const reply = await udp.send('MYLISTADD', { size, ed2k: ed2k.toLowerCase(), state: onDelete, edit: 1 });
    if (![311, 411, 320].includes(reply.code)) throw new Error(`AniDB MYLISTADD edit failed: ${reply.code} ${reply.text}`);
    ctx.logger.info(`Marked ${ed2k} with MyList state ${onDelete}`);
  }
}
