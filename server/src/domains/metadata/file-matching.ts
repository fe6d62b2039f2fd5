import type { FileEvent, FileNotMatchedEvent } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { lookupFile, lookupGroup } from '../../providers/anidb/udp/index.js';
import type { FileReads } from '../files/index.js';
import { fileEvent } from '../files/index.js';
import type { AniDBConnection } from './anidb-connection.js';
import type { FileLinksStore } from './file-links.store.js';

export interface ProcessFilePayload {
  fileId: number;
  /** Ask AniDB again even when an answer is stored (a user's rescan). */
  force?: boolean;
}

/** Called with the AniDB anime a file was linked to, so their metadata and series get created. */
export type AnimeNeeded = (animeIds: number[], context: JobContext) => Promise<void>;

/**
 * "Get Cross-References for File": identifies hashed content with AniDB's FILE command (or the stored answer), records
 * the links to episodes, then asks for the anime data. Content AniDB does not know stays unrecognized and counts
 * its attempts, so the scheduled re-check can back off.
 */
export class FileMatching {
  readonly job: JobDefinition<ProcessFilePayload>;

  constructor(
    private readonly deps: {
      files: FileReads;
      links: FileLinksStore;
      anidb: AniDBConnection;
      queue: QueueService;
      bus: EventBus;
      onAnimeNeeded: AnimeNeeded;
      /** AniDB knows this content (MyList follows). */
      onIdentified?: (content: { ed2k: string; size: number }) => Promise<void>;
    },
  ) {
    this.job = {
      kind: 'ProcessFileJob',
      type: 'Get Cross-References for File',
      title: 'Getting Cross-References for File',
      group: 'Import',
      priority: JobPriority.Lookup,
      key: (p) => `${p.fileId}`,
      details: (p) => ({ FileID: p.fileId }),
      run: (p, ctx) => this.process(p, ctx),
    };
    deps.queue.register(this.job);
  }

  queue(fileId: number, options: { force?: boolean; priority?: boolean } = {}): Promise<boolean> {
    return this.deps.queue.enqueue(
      this.job,
      { fileId, force: options.force ?? false },
      options.priority ? { priority: JobPriority.Discover } : {},
    );
  }

  /** Queues lookups of many files in multi-row inserts (files already waiting are left as they are); answers how many went in. */
  queueMany(fileIds: number[]): Promise<number> {
    return this.deps.queue.enqueueMany(
      this.job,
      fileIds.map((fileId) => ({ fileId, force: false })),
    );
  }

  private async process({ fileId, force = false }: ProcessFilePayload, ctx: JobContext): Promise<void> {
    const file = await this.deps.files.file(fileId);
    if (!file || !file.ed2k) return;
    const stored = await this.deps.links.anidbFile(file.ed2k, file.size);
    let links = await this.deps.links.links(file.ed2k, file.size);
    if (force || !stored?.file_id || !links.length) {
      // During a ban, a back-off pause or a refused login the queue holds this job; one that started just before waits too.
      const hold = this.deps.anidb.udpHold();
      if (hold) throw new Error(`${hold}; the lookup waits until that is over`);
      // Sizes that are exact multiples of the ED2K chunk have two hashes in the wild; AniDB may know either.
      let info = await lookupFile(this.deps.anidb.udp(), file.size, file.ed2k);
      if (!info && file.ed2k_alternate) info = await lookupFile(this.deps.anidb.udp(), file.size, file.ed2k_alternate);
      await this.deps.links.saveLookup(file.ed2k, file.size, info);
      links = await this.deps.links.links(file.ed2k, file.size);
      if (!info) {
        ctx.logger.info(`AniDB does not know ${file.ed2k} (${file.size} bytes); the file stays unrecognized`);
        await this.emitForLocations(fileId, 'FileNotMatched', {
          AutoMatchAttempts: (stored?.lookup_attempts ?? 0) + 1,
          HasCrossReferences: links.length > 0,
          IsUDPBanned: false,
        });
        return;
      }
      await this.deps.onIdentified?.({ ed2k: file.ed2k, size: file.size });
      if (info.groupId > 0 && !(await this.deps.links.releaseGroup(info.groupId))) {
        // The group's name once per group: release management, File.AniDB and the renamer show it.
        const group = await lookupGroup(this.deps.anidb.udp(), info.groupId).catch((error) => {
          ctx.logger.warn(`AniDB GROUP ${info!.groupId} failed: ${(error as Error).message}`);
          return null;
        });
        if (group) await this.deps.links.saveReleaseGroup(group);
      }
    }
    const animeIds = [...new Set(links.map((link) => link.anime_id))];
    if (animeIds.length) await this.deps.onAnimeNeeded(animeIds, ctx);
  }

  private async emitForLocations(
    fileId: number,
    event: 'FileNotMatched',
    extra: Omit<FileNotMatchedEvent, keyof FileEvent>,
  ): Promise<void> {
    for (const location of await this.deps.files.locationsOfFiles([fileId])) {
      this.deps.bus.emit('shoko', { event, payload: { ...fileEvent(fileId, location), ...extra } });
    }
  }
}
