import type Database from 'better-sqlite3';

/** Each database's prepared statements by their SQL (weakly: a closed database takes them with it). */
const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * The statement for `sql`, prepared once per database: preparing costs about 0.1 ms, and
 * some statements run on every prompt (the session's lease, its last turn).
 */
export function sqliteStatement(db: Database.Database, sql: string): Database.Statement {
  let statements = prepared.get(db);
  if (statements === undefined) {
    statements = new Map();
    prepared.set(db, statements);
  }
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
