// The `ckyc_records` row of one borrower, as the CKYC operations lock and check it.
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ckycRecords } from "../db/schema.ts";

export type CkycRow = typeof ckycRecords.$inferSelect;

/** The audit rows of CKYC are about the borrower. */
export const userSubject = (id: string) => ({ type: "user", id }) as const;

/** The borrower's row, made (pending, nothing searched) when there is none yet, and locked for the rest of `tx`. */
export async function lockCkycRow(tx: Db, userId: string, at: Date): Promise<CkycRow> {
  await tx.insert(ckycRecords).values({ userId, status: "pending", createdAt: at, updatedAt: at }).onConflictDoNothing();
  const [row] = await tx.select().from(ckycRecords).where(eq(ckycRecords.userId, userId)).for("update");
  if (!row) throw new Error("the CKYC row just made is not there");
  return row;
}

/** Whether another borrower's row holds this number already (the column is unique: a second one would fail the transaction). */
export async function numberHeldByAnother(db: Db, userId: string, ckycNumber: string) {
  const [other] = await db
    .select({ userId: ckycRecords.userId })
    .from(ckycRecords)
    .where(and(eq(ckycRecords.ckycNumber, ckycNumber), ne(ckycRecords.userId, userId)));
  return Boolean(other);
}
