import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Tables a job writes without changing anything a kept answer shows: the queue's own rows (jobs it queues), and
 * AniDB's bans, back-off pauses and request times (a lookup failing while AniDB is unreachable records its back-off).
 */
const BOOKKEEPING_TABLES = new Set(['jobs', 'anidb_bans', 'anidb_checks', 'anidb_anime_requests']);

const RAW_WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i;

function tableName(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  return null;
}

/**
 * The tables a statement may write: none for a read, null among them when it cannot be told (then anything may have
 * changed).
 */
export function tablesWritten(node: RootOperationNode): Array<string | null> {
  switch (node.kind) {
    case 'SelectQueryNode':
      return [];
    case 'InsertQueryNode':
      return [tableName(node.into)];
    case 'UpdateQueryNode':
      return [tableName(node.table)];
    case 'DeleteQueryNode': {
      const tables = node.from.froms.map(tableName);
      return tables.length ? tables : [null];
    }
    case 'RawNode': {
      const text = node.sqlFragments.join('?');
      if (/^\s*(?:select|explain)\b/i.test(text)) return [];
      const written = RAW_WRITE.exec(text);
      return [written ? written[1]!.toLowerCase() : null];
    }
    default:
      return [null];
  }
}

/** Whether a statement may change what the API answers: anything but a read or a write to the queue's own rows. */
export function writesBeyondBookkeeping(node: RootOperationNode): boolean {
  return tablesWritten(node).some((t) => t === null || !BOOKKEEPING_TABLES.has(t));
}

/**
 * What a job wrote: `wrote` at its first statement that may change an answer; `tables` the tables such statements
 * wrote, null once one could not be told.
 */
export interface WriteRecord {
  wrote: boolean;
  tables?: Set<string> | null;
}

/**
 * Tells whether a job wrote to the database: the queue runs each job inside `track`, and every statement made from
 * there (through a Kysely instance this plugin is on) that may change what an answer shows marks the record. A job
 * that failed without such a write changed nothing, so its end need not drop what is kept from the collection (the
 * read cache, the series search index, the filters' kept Sizes): after a 100,000-file import, AniDB lookups failing
 * one every ~6 s while AniDB was unreachable rebuilt the search index and recounted the filters each time.
 */
export class JobWrites implements KyselyPlugin {
  private readonly current = new AsyncLocalStorage<WriteRecord>();

  /** Runs `work`, noting in `record` what its statements write (see WriteRecord). */
  track<T>(record: WriteRecord, work: () => Promise<T>): Promise<T> {
    return this.current.run(record, work);
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const record = this.current.getStore();
    if (record && (!record.wrote || record.tables))
      for (const table of tablesWritten(node)) {
        if (table !== null && BOOKKEEPING_TABLES.has(table)) continue;
        record.wrote = true;
        if (table === null) record.tables = null;
        else record.tables?.add(table);
      }
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/**
 * Runs a job's work and says how it ended: its failure, if any, whether it may have changed anything, and the tables
 * it wrote (null: it cannot be told). A job that failed without writing changed nothing; one that succeeded may have
 * changed files on disk. Without a tracker every end counts as a change of anything.
 */
export async function runTracked(
  writes: JobWrites | null,
  work: () => Promise<void>,
): Promise<{ failure: { error: unknown } | null; changed: boolean; tables: ReadonlySet<string> | null }> {
  const record: WriteRecord = { wrote: false, tables: new Set() };
  const tables = () => (writes ? (record.tables ?? null) : null);
  try {
    await (writes ? writes.track(record, work) : work());
    return { failure: null, changed: true, tables: tables() };
  } catch (error) {
    return { failure: { error }, changed: !writes || record.wrote, tables: tables() };
  }
}
