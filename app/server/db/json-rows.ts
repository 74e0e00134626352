// A table's rows carried inside another query's row as JSON (a json_agg in a subquery), and read
// back into the very objects Drizzle's own select gives: one statement instead of one per table
// where a page reads a row with its children. Each value is decoded by its column, as Drizzle does.
import { eq, getTableColumns, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";
import { preparedQuery } from "./prepared.ts";
import { users } from "./schema.ts";

/** json_build_object takes at most 100 arguments: 50 columns. */
const MAX_COLUMNS = 50;

/**
 * `table`'s columns `keys` (all by default) as `json_build_object('key', alias."column", …)` for a
 * row of `table` named `alias` in the SQL, and `decode`, which turns one such object (as JSON.parse
 * gave it) back into the row Drizzle's select of those columns gives.
 */
export function jsonColumns<T extends PgTable, K extends keyof T["$inferSelect"] & string>(
  table: T,
  alias: string,
  keys?: readonly K[],
): { sql: SQL; decode: (json: Record<string, unknown>) => Pick<T["$inferSelect"], K> } {
  const columns = getTableColumns(table);
  const picked = (keys ?? (Object.keys(columns) as K[])).map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`no column ${key}`);
    return [key, column] as const;
  });
  if (picked.length > MAX_COLUMNS) throw new Error(`json_build_object takes at most ${MAX_COLUMNS} columns`);
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`not an alias: ${alias}`);
  const text = `json_build_object(${picked.map(([key, column]) => `'${key}', ${alias}."${column.name}"`).join(", ")})`;
  return {
    sql: sql.raw(text),
    decode: (json) => {
      const row: Record<string, unknown> = {};
      for (const [key, column] of picked) {
        const value = json[key];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row as Pick<T["$inferSelect"], K>;
    },
  };
}

/**
 * A statement of subqueries about one user, each given by `columns(userId)` (whose `userId` is the
 * statement's parameter: each subquery has the owner's id in it), prepared as `name`: the signed-in
 * pages read what several modules hold about the borrower in one round trip. Resolves to the row of
 * the subqueries' values (undefined for no such user), each for its module to decode.
 */
export function userColumnsReader<C extends Record<string, SQL>>(name: string, columns: (userId: SQLWrapper) => C) {
  const query = preparedQuery(name, (db, statement) =>
    db
      .select(columns(sql.placeholder("userId")) as Record<string, SQL<unknown>>)
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare(statement),
  );
  return async (db: Db, userId: string) => {
    const [row] = await query(db, { userId });
    return row as Record<keyof C, unknown> | undefined;
  };
}
