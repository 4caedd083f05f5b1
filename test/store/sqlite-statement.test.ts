import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteStatement } from '../../src/store/sqlite-statement.js';

describe('sqliteStatement', () => {
  it('prepares a statement once per database and SQL text, and it reads what is there at each run', () => {
    const one = new Database(':memory:');
    const two = new Database(':memory:');
    try {
      for (const db of [one, two]) db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const read = 'SELECT v FROM t WHERE id = ?';
      const statement = sqliteStatement(one, read);
      expect(sqliteStatement(one, read)).toBe(statement);
      expect(sqliteStatement(two, read)).not.toBe(statement);
      expect(sqliteStatement(one, 'SELECT v FROM t')).not.toBe(statement);
      expect(statement.get(1)).toBeUndefined();
      sqliteStatement(one, 'INSERT INTO t (id, v) VALUES (?, ?)').run(1, 'a');
      sqliteStatement(one, 'INSERT INTO t (id, v) VALUES (?, ?)').run(2, 'b');
      expect(sqliteStatement(one, read).get(2)).toEqual({ v: 'b' });
      expect(sqliteStatement(two, read).get(2)).toBeUndefined();
    } finally {
      one.close();
      two.close();
    }
  });
});
