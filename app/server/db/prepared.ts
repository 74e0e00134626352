// Queries that run on nearly every request (who is signed in, the unread count), built once per
// database as a prepared statement instead of on each call: Drizzle's building of a query (walking
// its columns and conditions) cost more CPU than PostgreSQL's answer. On PostgreSQL the statement
// is also parsed once per connection. Values go in through `sql.placeholder(name)`.
import type { Db } from "./client.ts";

interface Executable<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * `build(db, name)` once per database (a transaction is a database of its own), then its
 * `execute(values)`; `name` must be unique in the process: PostgreSQL keeps it per connection.
 */
export function preparedQuery<R>(name: string, build: (db: Db, name: string) => Executable<R>) {
  const byDb = new WeakMap<Db, Executable<R>>();
  return (db: Db, values: Record<string, unknown>): Promise<R> => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db, name);
      byDb.set(db, query);
    }
    return query.execute(values);
  };
}
