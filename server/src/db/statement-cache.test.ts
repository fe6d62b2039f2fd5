import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('withStatementCache', () => {
  let connection: SQLite.Database;
  const open = () => {
    connection = new SQLite(':memory:');
    connection.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c')");
    return withStatementCache(connection, 2);
  };
  afterEach(() => connection?.open && connection.close());

  it('hands back the same prepared statement for the same SQL', () => {
    const db = open();
    const first = db.prepare('SELECT name FROM t WHERE id = ?');
    expect(db.prepare('SELECT name FROM t WHERE id = ?')).toBe(first);
    expect(first.all([2])).toEqual([{ name: 'b' }]);
    expect(db.prepare('SELECT id FROM t')).not.toBe(first);
  });

  it('keeps only the most recently used statements', () => {
    const db = open();
    const a = db.prepare('SELECT 1');
    db.prepare('SELECT 2');
    db.prepare('SELECT 1');
    db.prepare('SELECT 3');
    expect(db.prepare('SELECT 1')).toBe(a);
    const b = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 2')).toBe(b);
  });

  it('gives a statement still being iterated a second, separate one', () => {
    const db = open();
    const outer = db.prepare('SELECT id FROM t ORDER BY id');
    const ids: number[] = [];
    for (const row of outer.iterate([]) as IterableIterator<{ id: number }>) {
      const inner = db.prepare('SELECT id FROM t ORDER BY id');
      expect(inner).not.toBe(outer);
      ids.push(row.id, (inner.all([]) as { id: number }[]).length);
    }
    expect(ids).toEqual([1, 3, 2, 3, 3, 3]);
  });

  it('still answers after the schema changes under a kept statement', () => {
    const db = open();
    expect(db.prepare('SELECT * FROM t WHERE id = 1').all([])).toEqual([{ id: 1, name: 'a' }]);
    connection.exec('ALTER TABLE t ADD COLUMN size INTEGER DEFAULT 7');
    expect(db.prepare('SELECT * FROM t WHERE id = 1').all([])).toEqual([{ id: 1, name: 'a', size: 7 }]);
  });

  it('closes the connection', () => {
    const db = open();
    db.prepare('SELECT 1');
    db.close();
    expect(connection.open).toBe(false);
  });
});
