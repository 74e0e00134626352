// The bell's count: the unread notices of a user that are out at a time (a reminder made at night
// waits for the morning). Read with the session on every signed-in page (auth/session.server.ts)
// and when a notice is announced (notify.server.ts).
import { and, eq, isNull, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { notifications } from "../db/schema.ts";

type Value = AnyPgColumn | Placeholder;

/** The notices counted. */
export const unreadWhere = (userId: Value, at: Value) =>
  and(eq(notifications.userId, userId), isNull(notifications.readAt), lte(notifications.availableAt, at)) as SQL;

/** Their count, as a subquery of another select. */
export const unreadNoticesOf = (userId: Value, at: Value) =>
  sql<number>`(select count(*)::int from ${notifications} where ${unreadWhere(userId, at)})`;
