import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AVDumpService } from './avdump.service.js';
import { AVDumpStore } from './avdump.store.js';

type AVDumpDeps = ConstructorParameters<typeof AVDumpService>[0];

/** Builds the AVDump sessions over an installed AVDump3 tool. */
export function createAVDumpDomain(deps: { db: Kysely<Database> } & Omit<AVDumpDeps, 'store'>): AVDumpService {
  const { db, ...rest } = deps;
  return new AVDumpService({ store: new AVDumpStore(db), ...rest });
}
