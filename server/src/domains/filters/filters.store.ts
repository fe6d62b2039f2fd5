import type { Kysely, Selectable } from 'kysely';
import type { Database, FiltersTable } from '../../db/schema.js';

export type FilterRow = Selectable<FiltersTable>;
type FilterValues = Pick<
  FilterRow,
  'parent_id' | 'name' | 'is_directory' | 'is_hidden' | 'apply_at_series_level' | 'expression' | 'sorting'
>;

/** Saved filters (presets) and their directories. */
export class FiltersStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(id: number): Promise<FilterRow | null> {
    return (await this.db.selectFrom('filters').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  children(parentId: number | null): Promise<FilterRow[]> {
    const query = this.db.selectFrom('filters').selectAll().orderBy('name').orderBy('id');
    return (parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId)).execute();
  }

  async childCount(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('filters')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Ids from `id` up to its root. */
  async ancestors(id: number): Promise<number[]> {
    const chain: number[] = [];
    for (
      let current = await this.get(id);
      current && chain.length < 100;
      current = current.parent_id ? await this.get(current.parent_id) : null
    )
      chain.push(current.id);
    return chain;
  }

  async insert(values: FilterValues & { is_locked?: number }): Promise<number> {
    const stamp = new Date().toISOString();
    const row = await this.db
      .insertInto('filters')
      .values({ is_locked: 0, ...values, created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: FilterValues): Promise<void> {
    await this.db
      .updateTable('filters')
      .set({ ...values, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('filters').where('id', '=', id).execute();
  }
}
